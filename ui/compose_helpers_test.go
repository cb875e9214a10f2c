package ui

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/flowtest"
	"github.com/mcpscope/mcpscope/proto"
)

// fakePeer is a transport with a scripted server behind it: initialize is
// answered as a 2025-11-25 server, "no/such" with -32601, and every other
// request with a text content naming the method and its params. Every
// message the client sends is kept and captured as a frame in the sink.
type fakePeer struct {
	sink capture.Sink

	mu      sync.Mutex
	sent    []*proto.Message
	deliver func(*proto.Message)
	hold    bool // leave requests after the handshake unanswered

	done chan struct{}
	once sync.Once
}

var _ client.Transport = (*fakePeer)(nil)

// Start keeps deliver.
func (f *fakePeer) Start(_ context.Context, deliver func(*proto.Message)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deliver = deliver
	return nil
}

// Send records m, captures it, and answers a request.
func (f *fakePeer) Send(_ context.Context, m *proto.Message) error {
	raw, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	f.sink.Append(&capture.Frame{Time: t0, Dir: capture.Out, Conn: "fake", Chan: capture.Channel{Kind: capture.Control},
		Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m})
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, m)
	if m.Kind() != proto.KindRequest || (f.hold && m.Method != proto.MethodInitialize) {
		return nil
	}
	var answer *proto.Message
	switch m.Method {
	case proto.MethodInitialize:
		answer, err = proto.NewResult(*m.ID, map[string]any{"protocolVersion": proto.LatestLegacy,
			"capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "fake", "version": "1"}})
	case "no/such":
		answer = proto.NewErrorResponse(*m.ID, proto.CodeMethodNotFound, "no such method here", nil)
	default:
		text := m.Method + " with " + string(m.Params)
		answer, err = proto.NewResult(*m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	}
	if err != nil {
		return err
	}
	go f.deliver(answer)
	return nil
}

// Close ends the connection.
func (f *fakePeer) Close() error {
	f.once.Do(func() { close(f.done) })
	return nil
}

// Done is closed by Close.
func (f *fakePeer) Done() <-chan struct{} { return f.done }

// Err is nil: the connection only ends by Close.
func (f *fakePeer) Err() error { return nil }

// setHold says whether requests after the handshake stay unanswered.
func (f *fakePeer) setHold(hold bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold = hold
}

// after returns the messages sent after the handshake.
func (f *fakePeer) after() []*proto.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*proto.Message
	for _, m := range f.sent {
		if m.Method != proto.MethodInitialize && m.Method != proto.MethodNotifyInitialized {
			out = append(out, m)
		}
	}
	return out
}

// connectFake connects m to a fakePeer, as a finished dial would.
func connectFake(t *testing.T, m *Model) *fakePeer {
	t.Helper()
	f := &fakePeer{sink: m.cfg.Store, done: make(chan struct{})}
	s := client.New(f, client.Options{ProtocolVersion: proto.LatestLegacy})
	if err := s.Connect(flowtest.Context(t)); err != nil {
		t.Fatalf("connecting to the fake peer: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	m.conn = connection{link: Link{Transport: f, Session: s}, gen: 1, dialect: proto.DialectMCP, ready: true}
	return f
}

// runInBackground runs cmd, and the commands of a batch, dropping their
// messages.
func runInBackground(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if b, ok := cmd().(tea.BatchMsg); ok {
			for _, sub := range b {
				runInBackground(sub)
			}
		}
	}()
}

// waitFor polls ok; the timeout is a hang guard.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(flowtest.HangGuard)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s never came", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// runUntilAnswer runs cmd, and the commands of a batch, and gives the
// composer's answer to the model; ticks and cursor blinks are dropped.
func runUntilAnswer(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	msgs := make(chan tea.Msg, 64)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			msg := c()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, sub := range b {
					run(sub)
				}
				return
			}
			select {
			case msgs <- msg:
			default:
			}
		}()
	}
	run(cmd)
	deadline := time.After(flowtest.HangGuard)
	for {
		select {
		case msg := <-msgs:
			if a, ok := msg.(composeAnswerMsg); ok {
				m.Update(a)
				return
			}
		case <-deadline:
			t.Fatal("the composer's call never ended")
		}
	}
}

// ctrl is the key press of ctrl and a letter.
func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

// typeKeys sends each rune of s to the model as a key press.
func typeKeys(m *Model, s string) {
	for _, r := range s {
		press(m, string(r))
	}
}

// composerOf returns the open composer.
func composerOf(t *testing.T, m *Model) *composer {
	t.Helper()
	c, ok := m.overlay.(*composer)
	if !ok {
		t.Fatalf("the composer is not open (overlay %T)", m.overlay)
	}
	return c
}

// editorJSON is the editor's text as compact JSON.
func editorJSON(t *testing.T, c *composer) string {
	t.Helper()
	v, err := c.editor.Value()
	if err != nil {
		t.Fatalf("the editor does not hold JSON: %v", err)
	}
	return string(v)
}

// decodeParams decodes the params of a sent message.
func decodeParams(t *testing.T, m *proto.Message) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(m.Params, &v); err != nil {
		t.Fatalf("params %s: %v", m.Params, err)
	}
	return v
}
