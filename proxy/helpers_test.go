package proxy

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/statedir"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
)

func TestMain(m *testing.M) { os.Exit(statedir.Run(m.Run)) }

// carried is one call a fakeCarrier took.
type carried struct {
	call string // pass, send or cut
	hop  Hop    // pass
	dir  capture.Dir
	body []byte // send
	why  string // cut
}

// fakeCarrier records what Relay carries, and fails when told to.
type fakeCarrier struct {
	mu    sync.Mutex
	calls []carried
	fail  error
}

func (c *fakeCarrier) Pass(_ context.Context, h Hop) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, carried{call: "pass", hop: h, dir: h.Dir})
	return c.fail
}

func (c *fakeCarrier) Send(_ context.Context, dir capture.Dir, body []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, carried{call: "send", dir: dir, body: bytes.Clone(body)})
	return c.fail
}

func (c *fakeCarrier) Cut(reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, carried{call: "cut", why: reason})
}

func (c *fakeCarrier) took() []carried {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]carried(nil), c.calls...)
}

// openSession opens an unrecorded session closed at the test's end.
func openSession(t testing.TB, faults ...Fault) *Session {
	t.Helper()
	s, err := Open(Options{Name: "test", NoRecord: true, Faults: faults, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(nil) })
	return s
}

// hop is a control message going dir, its wire bytes the body plus a
// newline (stdio's framing).
func hop(dir capture.Dir, body string) Hop {
	raw := []byte(body + "\n")
	return Hop{Dir: dir, Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Body: raw[:len(body)], Enc: proto.EncJSON}
}

func request(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
}

func callTool(id int, tool string) string {
	return request(id, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":{}}`, tool))
}

func result(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, id) }

// relay relays h and fails the test on an error.
func relay(t testing.TB, s *Session, h Hop, c Carrier) {
	t.Helper()
	if err := s.Relay(context.Background(), h, c); err != nil {
		t.Fatalf("Relay: %v", err)
	}
}

// marks returns the marks in the store, in order.
func marks(s *Session) []Mark {
	var out []Mark
	for _, f := range s.Store().Window(0, s.Store().Len()) {
		if m, ok := ParseMark(f); ok {
			out = append(out, m)
		}
	}
	return out
}

// whats returns what each mark says happened.
func whats(s *Session) []string {
	var out []string
	for _, m := range marks(s) {
		out = append(out, m.What)
	}
	return out
}

// frames returns the frames in the store that are not marks.
func frames(s *Session) []*capture.Frame {
	var out []*capture.Frame
	for _, f := range s.Store().Window(0, s.Store().Len()) {
		if f.Chan.Kind != capture.Proxy {
			out = append(out, f)
		}
	}
	return out
}

// waitFor waits until ok holds, woken by the store's changes; it fails the
// test after guard.Hang, saying what it waited for.
func waitFor(t testing.TB, s *Session, what string, ok func() bool) {
	t.Helper()
	ch, cancel := s.Store().Subscribe()
	defer cancel()
	bound := time.NewTimer(guard.Hang)
	defer bound.Stop()
	for !ok() {
		select {
		case <-ch:
		case <-bound.C:
			t.Fatalf("waited %s for %s; marks: %v", guard.Hang, what, whats(s))
		}
	}
}

// background relays h on a goroutine; the channel gives Relay's error.
func background(ctx context.Context, s *Session, h Hop, c Carrier) <-chan error {
	done := make(chan error, 1)
	go func() { done <- s.Relay(ctx, h, c) }()
	return done
}

// result waits for a background Relay's error.
func awaitRelay(t testing.TB, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(guard.Hang):
		t.Fatalf("Relay did not return in %s", guard.Hang)
	}
	return nil
}

// heldOne waits for one paused message and returns it.
func heldOne(t testing.TB, s *Session) Held {
	t.Helper()
	waitFor(t, s, "a paused message", func() bool { return len(s.Held()) == 1 })
	return s.Held()[0]
}
