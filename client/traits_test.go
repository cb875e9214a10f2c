package client

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// flowishTransport is a fake transport with the MCP-Flow hooks: it asks for
// the initialize handshake only and cancels through CancelRequest.
type flowishTransport struct {
	*fakeTransport
	cancels chan mcp.CancelledNotificationParams
}

func (f *flowishTransport) Describe() Traits {
	return Traits{InitializeOnly: true, Cancel: f.CancelRequest}
}

func (f *flowishTransport) CancelRequest(_ context.Context, id jsonrpc.ID, reason string) error {
	f.cancels <- mcp.CancelledNotificationParams{RequestID: id, Reason: reason}
	return nil
}

func connectFlowish(t *testing.T, script func(*fakeServer), opts Options) (*Session, *flowishTransport) {
	t.Helper()
	ft := &flowishTransport{fakeTransport: newFake(t, script), cancels: make(chan mcp.CancelledNotificationParams, 4)}
	s := New(ft, opts)
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, ft
}

func TestInitializeOnlySkipsDiscover(t *testing.T) {
	for _, c := range []struct {
		protocol, offered string
		era               Era
	}{
		{"", mcp.LatestLegacy, EraLegacy},
		{mcp.Modern, mcp.Modern, EraModern},
	} {
		s, ft := connectFlowish(t, scriptedHandshake(string(mustJSON(discoverResult(mcp.Modern))), c.offered),
			Options{ProtocolVersion: c.protocol})
		sent := ft.srv.sentMessages()
		if got := methods(sent); len(got) != 2 || got[0] != mcp.MethodInitialize || got[1] != mcp.MethodNotifyInitialized {
			t.Fatalf("protocol %q: sent %v, want initialize then notifications/initialized only", c.protocol, got)
		}
		var p mcp.InitializeParams
		if err := json.Unmarshal(sent[0].Params, &p); err != nil || p.ProtocolVersion != c.offered {
			t.Fatalf("protocol %q: initialize offered %q (%v), want %q", c.protocol, p.ProtocolVersion, err, c.offered)
		}
		if s.Era() != c.era {
			t.Fatalf("protocol %q: era %s, want %s", c.protocol, s.Era(), c.era)
		}
	}
}

func TestRequestCancellerReplacesNotificationsCancelled(t *testing.T) {
	s, ft := connectFlowish(t, serve(false, func(*fakeServer, *jsonrpc.Message) {}), Options{Timeout: 50 * time.Millisecond})
	var id jsonrpc.ID
	_, err := s.Call(testCtx(t), "slow", nil, WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a TimeoutError", err)
	}
	select {
	case p := <-ft.cancels:
		if p.RequestID != id || p.Reason == "" {
			t.Fatalf("CancelRequest(%s, %q), want id %s with a reason", p.RequestID, p.Reason, id)
		}
	case <-time.After(hangGuard):
		t.Fatalf("CancelRequest was never called within %s", hangGuard)
	}

	// Session.Cancel takes the same path.
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	ids := make(chan jsonrpc.ID, 1)
	errs := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "slow", nil, WithTimeout(hangGuard), WithRounds(func(_ int, got jsonrpc.ID) { ids <- got }))
		errs <- err
	}()
	second := <-ids
	for s.InFlight() == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := s.Cancel(second, "user pressed Escape"); err != nil {
		t.Fatal(err)
	}
	if p := <-ft.cancels; p.RequestID != second || p.Reason != "user pressed Escape" {
		t.Fatalf("CancelRequest(%s, %q)", p.RequestID, p.Reason)
	}
	var ce *CancelledError
	if err := <-errs; !errors.As(err, &ce) {
		t.Fatalf("cancelled call: %v", err)
	}
	for _, m := range ft.srv.sentMessages() {
		if m.Method == mcp.MethodNotifyCancelled {
			t.Fatal("notifications/cancelled was sent although the transport cancels on its own")
		}
	}
}

// handshakeFreeTransport is a fake transport of a dialect with no
// handshake (seed 004's tools-http).
type handshakeFreeTransport struct{ *fakeTransport }

func (handshakeFreeTransport) Describe() Traits { return Traits{HandshakeFree: true} }

// A transport with no handshake connects without sending anything, and
// its first message is the call itself, answered as usual.
func TestHandshakeFreeSendsNoHandshake(t *testing.T) {
	ft := handshakeFreeTransport{newFake(t, func(srv *fakeServer) {
		m, ok := srv.next()
		if !ok {
			return
		}
		srv.result(*m.ID, map[string]any{"content": []any{}})
	})}
	s := New(ft, Options{})
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if _, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]any{"name": "echo"}); err != nil {
		t.Fatalf("Call: %v", err)
	}
	if got := methods(ft.srv.sentMessages()); len(got) != 1 || got[0] != mcp.MethodToolsCall {
		t.Fatalf("sent %v, want tools/call alone", got)
	}
	if s.Era() != EraLegacy {
		t.Fatalf("era %s, want legacy", s.Era())
	}
}

// tallyingTransport is a fake transport that counts unsent answers and
// how often it was asked to describe itself.
type tallyingTransport struct {
	*fakeTransport
	unsent    atomic.Uint64
	described atomic.Int32
}

func (tt *tallyingTransport) Describe() Traits {
	tt.described.Add(1)
	return Traits{Tally: func() Tally { return Tally{UnsentAnswers: tt.unsent.Load()} }}
}

// Session.Tally reads the transport's live count through the traits it
// declared once, at New: it never asks the transport to describe itself
// again.
func TestSessionTallyReadsTheDeclaredCount(t *testing.T) {
	tt := &tallyingTransport{fakeTransport: newFake(t, func(*fakeServer) {})}
	s := New(tt, Options{})
	if got := s.Tally(); got != (Tally{}) {
		t.Fatalf("Tally() = %+v before anything went unsent", got)
	}
	tt.unsent.Store(7)
	if got := s.Tally(); got != (Tally{UnsentAnswers: 7}) {
		t.Fatalf("Tally() = %+v, want 7 unsent answers", got)
	}
	if n := tt.described.Load(); n != 1 {
		t.Fatalf("the transport described itself %d times, want once", n)
	}
	if got := New(&fakeTransport{}, Options{}).Tally(); got != (Tally{}) {
		t.Fatalf("Tally() = %+v over a transport that counts nothing", got)
	}
}
