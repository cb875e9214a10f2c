package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proxy"
)

// sentBody is what a fakeCarrier was asked to Send.
type sentBody struct {
	dir  capture.Dir
	body string
}

// fakeCarrier stands for a relay's two connections: it remembers what
// Relay carried on.
type fakeCarrier struct {
	mu     sync.Mutex
	passed []string // bodies carried unchanged
	sent   []sentBody
}

func (c *fakeCarrier) Pass(_ context.Context, h proxy.Hop) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.passed = append(c.passed, string(h.Body))
	return nil
}

func (c *fakeCarrier) Send(_ context.Context, dir capture.Dir, body []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, sentBody{dir: dir, body: string(body)})
	return nil
}

func (c *fakeCarrier) Cut(string) {}

// snapshot returns what was passed and sent so far.
func (c *fakeCarrier) snapshot() ([]string, []sentBody) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.passed...), append([]sentBody(nil), c.sent...)
}

// stepClock hands out times 5 ms apart from t0, safely from any goroutine.
type stepClock struct {
	mu sync.Mutex
	n  int
}

func (c *stepClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return t0.Add(time.Duration(c.n) * 5 * time.Millisecond)
}

// newProxySession opens an unrecorded proxied session of a stdio server
// named echo, on a clock of its own; it is closed with the test.
func newProxySession(t *testing.T) *proxy.Session {
	t.Helper()
	c := &stepClock{}
	s, err := proxy.Open(proxy.Options{Name: "echo", Target: "node everything.js stdio", Transport: "stdio", NoRecord: true, Clock: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(nil) })
	return s
}

// relay hands the message body to s as a relay of a stdio pair would
// (a line each way); a Relay that holds it fails the test.
func relay(t *testing.T, s *proxy.Session, c proxy.Carrier, dir capture.Dir, body string) error {
	t.Helper()
	return relayed(t, relayInBackground(t, s, c, dir, body))
}

// relayInBackground relays body on its own goroutine (a paused message
// holds Relay) and returns where its error arrives.
func relayInBackground(t *testing.T, s *proxy.Session, c proxy.Carrier, dir capture.Dir, body string) <-chan error {
	t.Helper()
	errc := make(chan error, 1)
	h := proxy.Hop{Dir: dir, Chan: capture.Channel{Kind: capture.Control}, Raw: []byte(body + "\n"), Body: []byte(body), Enc: proto.EncJSON}
	go func() { errc <- s.Relay(context.Background(), h, c) }()
	return errc
}

// relayed waits for a Relay of relayInBackground to return.
func relayed(t *testing.T, errc <-chan error) error {
	t.Helper()
	select {
	case err := <-errc:
		return err
	case <-time.After(guard.Hang):
		t.Fatalf("Relay still holds the message after %s", guard.Hang)
	}
	return errors.New("unreachable")
}

// attachRunner runs an Attach's commands as the runtime would.
type attachRunner struct {
	*screentest.Runner
	a *Attach
}

// newTestAttach opens the TUI on src sized w×h and runs it.
func newTestAttach(t *testing.T, src AttachSource, next func(context.Context) (AttachSource, error), w, h int) *attachRunner {
	t.Helper()
	a := NewAttach(src, next)
	t.Cleanup(a.Close)
	update := func(msg tea.Msg) tea.Cmd { _, cmd := a.Update(msg); return cmd }
	r := &attachRunner{Runner: screentest.NewRunner(t, update, func() string { return a.View().Content }), a: a}
	r.Send(tea.WindowSizeMsg{Width: w, Height: h})
	r.Run(a.Init())
	return r
}

// screen is the whole screen, plain.
func (r *attachRunner) screen() string { return goldentest.Plain(r.a.View().Content) }

// waitScreen delivers messages until the screen holds every one of want.
func (r *attachRunner) waitScreen(want ...string) {
	r.Until(strings.Join(want, " · "), func() bool {
		s := r.screen()
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// refreshed reads the store into the panes at once.
func (r *attachRunner) refreshed() { r.Send(refreshMsg{at: t0}) }

// typeLine types text into the open input line and presses enter.
func (r *attachRunner) typeLine(text string) {
	r.Press("ctrl+u")
	r.TypeText(text)
	r.Press("enter")
}
