package client

import (
	"errors"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// closingTransport is a fake transport that can close a request's answer
// stream (Traits.Abort) and is told of a request given up on before
// notifications/cancelled (Traits.Cancelled), as Streamable HTTP is.
type closingTransport struct {
	*fakeTransport
	open    bool // Abort finds the request's stream open
	aborted chan jsonrpc.ID
	given   chan jsonrpc.ID
}

func (c *closingTransport) Describe() Traits {
	return Traits{
		Abort:     func(id jsonrpc.ID, _ string) bool { c.aborted <- id; return c.open },
		Cancelled: func(id jsonrpc.ID) { c.given <- id },
	}
}

// connectClosing connects a session over a closingTransport, in the
// 2026-07-28 revision when modern is set.
func connectClosing(t *testing.T, modern, open bool) (*Session, *closingTransport) {
	t.Helper()
	c := &closingTransport{fakeTransport: newFake(t, serve(modern, func(*fakeServer, *jsonrpc.Message) {})), open: open,
		aborted: make(chan jsonrpc.ID, 4), given: make(chan jsonrpc.ID, 4)}
	s := New(c, Options{Timeout: 50 * time.Millisecond})
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, c
}

// The engine decides how a request it gives up on is cancelled: in the
// 2026-07-28 revision by closing its answer stream, with no notification
// even when the stream is no longer open (the revision has none); in an
// earlier one with notifications/cancelled, the transport told first.
func TestEngineDecidesHowToCancel(t *testing.T) {
	for _, c := range []struct {
		name         string
		modern, open bool
		abort, given bool
	}{
		{"modern", true, true, true, false},
		{"modern, stream gone", true, false, true, false},
		{"legacy", false, true, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, ct := connectClosing(t, c.modern, c.open)
			var id jsonrpc.ID
			_, err := s.Call(testCtx(t), "slow", nil, WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
			var te *TimeoutError
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want a TimeoutError", err)
			}
			if got := len(ct.aborted) > 0; got != c.abort {
				t.Errorf("Abort called %v, want %v", got, c.abort)
			}
			if got := len(ct.given) > 0; got != c.given {
				t.Errorf("Cancelled called %v, want %v", got, c.given)
			}
			notified := false
			for _, m := range ct.srv.sentMessages() {
				notified = notified || m.Method == mcp.MethodNotifyCancelled
			}
			if notified != c.given {
				t.Errorf("notifications/cancelled sent %v, want %v", notified, c.given)
			}
			if c.abort && (<-ct.aborted).Key() != id.Key() {
				t.Errorf("aborted another id than %s", id)
			}
		})
	}
}
