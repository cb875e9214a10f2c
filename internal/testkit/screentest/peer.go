// Package screentest holds what the tests of the UI's screens share: a
// scripted MCP server behind a transport (FakePeer), a screen.Host
// (Host), and the running of a screen's commands until the answer they
// wait for.
package screentest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// T0 is the time of the first test frame.
var T0 = time.Date(2026, 7, 28, 9, 30, 0, 0, time.UTC)

// FakePeer is a transport with a scripted server behind it: initialize is
// answered as a 2025-11-25 server, "no/such" with -32601, and every other
// request with a text content naming the method and its params. Every
// message the client sends is kept and captured as a frame in the sink.
// Its tally counts the unsent answers SetUnsentAnswers says.
type FakePeer struct {
	wire
	hold   bool          // leave requests after the handshake unanswered
	unsent atomic.Uint64 // answers it says it could not send
}

var _ client.Transport = (*FakePeer)(nil)

// Send records m, captures it, and answers a request.
func (f *FakePeer) Send(_ context.Context, m *jsonrpc.Message) error {
	if err := f.capture(m); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, m)
	if m.Kind() != jsonrpc.KindRequest || (f.hold && m.Method != mcp.MethodInitialize) {
		return nil
	}
	var answer *jsonrpc.Message
	var err error
	switch m.Method {
	case mcp.MethodInitialize:
		answer, err = jsonrpc.NewResult(*m.ID, map[string]any{"protocolVersion": mcp.LatestLegacy,
			"capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "fake", "version": "1"},
			"instructions": "Call echo first.\x1b]0;retitled\x07 Then stop."})
	case "no/such":
		answer = jsonrpc.NewErrorResponse(*m.ID, mcp.CodeMethodNotFound, "no such method here", nil)
	default:
		text := m.Method + " with " + string(m.Params)
		answer, err = jsonrpc.NewResult(*m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	}
	if err != nil {
		return err
	}
	go f.deliver(answer)
	return nil
}

// SetHold says whether requests after the handshake stay unanswered.
func (f *FakePeer) SetHold(hold bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold = hold
}

// SetUnsentAnswers sets how many answers to the server's requests the
// peer says it could not send (an HTTP server refusing their POSTs).
func (f *FakePeer) SetUnsentAnswers(n uint64) { f.unsent.Store(n) }

// Describe declares the peer's tally: the unsent answers.
func (f *FakePeer) Describe() client.Traits {
	return client.Traits{Tally: func() client.Tally { return client.Tally{UnsentAnswers: f.unsent.Load()} }}
}

// After returns the messages sent after the handshake.
func (f *FakePeer) After() []*jsonrpc.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*jsonrpc.Message
	for _, m := range f.sent {
		if m.Method != mcp.MethodInitialize && m.Method != mcp.MethodNotifyInitialized {
			out = append(out, m)
		}
	}
	return out
}

// Connect connects a session to a new FakePeer that captures every message
// it is sent in sink; the session is closed at the end of the test.
func Connect(t testing.TB, sink capture.Sink) (*FakePeer, *client.Session) {
	t.Helper()
	return ConnectWith(t, sink, client.Options{ProtocolVersion: mcp.LatestLegacy})
}

// ConnectWith is Connect with the session's options.
func ConnectWith(t testing.TB, sink capture.Sink, opts client.Options) (*FakePeer, *client.Session) {
	t.Helper()
	f := &FakePeer{wire: wire{sink: sink, done: make(chan struct{})}}
	return f, connectSession(t, f, opts, "the fake peer")
}

// connectSession connects a session over tr, which what names for a
// failure, and closes it at the end of the test.
func connectSession(t testing.TB, tr client.Transport, opts client.Options, what string) *client.Session {
	t.Helper()
	s := client.New(tr, opts)
	if err := s.Connect(flowtest.Context(t)); err != nil {
		t.Fatalf("connecting to %s: %v", what, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// ConnectDemo starts the in-process demo server for the test and connects
// a session to it over MCP-Flow, capturing in sink.
func ConnectDemo(t testing.TB, sink capture.Sink) *client.Session {
	t.Helper()
	d := flowtest.Start(t, flow.Config{})
	tr, err := d.Transport(sink)
	if err != nil {
		t.Fatal(err)
	}
	return connectSession(t, tr, client.Options{}, "the demo")
}
