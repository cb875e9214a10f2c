package client

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// deafAfterHandshake runs the handshake, then stops reading: every later
// send blocks until its context ends. deaf is closed once it has.
func deafAfterHandshake(deaf chan<- struct{}) func(*fakeServer) {
	return func(s *fakeServer) {
		if !s.handshake(false, mcp.LatestLegacy) {
			return
		}
		s.stopReading()
		close(deaf)
	}
}

// connectDeaf connects to a server that stops reading after the handshake.
func connectDeaf(t *testing.T, opts Options) (*Session, *fakeTransport) {
	t.Helper()
	deaf := make(chan struct{})
	s, ft := connect(t, deafAfterHandshake(deaf), opts)
	<-deaf
	return s, ft
}

// The limits of a request start before its send: a server that stopped
// reading makes the send, not only the wait for the answer, time out. The
// request never went out whole, so nothing is cancelled.
func TestSendBoundedByTheIdleLimit(t *testing.T) {
	s, ft := connectDeaf(t, Options{Timeout: 200 * time.Millisecond})
	_, err := s.Call(testCtx(t), "big", map[string]string{"pad": "x"})
	var te *TimeoutError
	if !errors.As(err, &te) || te.Sending == nil || te.MaxTime || te.After != "200ms" {
		t.Fatalf("Call to a deaf server = %v, want a TimeoutError while sending", err)
	}
	want := "big (id 3) timed out after 200ms while it was being sent: the fake server stopped reading: context deadline exceeded"
	if err.Error() != want {
		t.Fatalf("error %q\nwant  %q", err, want)
	}
	if got := ft.srv.blockedSends(); !slices.Equal(got, []string{"big"}) {
		t.Fatalf("sends tried after the handshake: %v, want the request alone (no cancellation)", got)
	}
}

// The max time bounds the send too when it is the shorter limit.
func TestSendBoundedByTheMaxTime(t *testing.T) {
	s, _ := connectDeaf(t, Options{Timeout: guard.Run, HardTimeout: 200 * time.Millisecond})
	_, err := s.Call(testCtx(t), "big", nil)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Sending == nil || !te.MaxTime || te.After != "200ms" {
		t.Fatalf("Call to a deaf server = %v, want the max time to end the send", err)
	}
}

// A notification's send is bounded by the idle limit as well.
func TestNotifyBoundedByTheIdleLimit(t *testing.T) {
	s, _ := connectDeaf(t, Options{Timeout: 200 * time.Millisecond})
	err := s.Notify(testCtx(t), mcp.MethodNotifyRootsListChanged, nil)
	want := "sending notifications/roots/list_changed timed out after 200ms: the fake server stopped reading: context deadline exceeded"
	if err == nil || err.Error() != want || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Notify to a deaf server = %v, want %q", err, want)
	}
}

// silentHandshake reads everything and answers nothing.
func silentHandshake(s *fakeServer) {
	for _, ok := s.next(); ok; _, ok = s.next() {
	}
}

// A handshake whose initialize times out ends the connection: the spec
// forbids cancelling initialize, so no notifications/cancelled goes out.
func TestInitializeTimeoutClosesWithoutCancelling(t *testing.T) {
	ft := newFake(t, silentHandshake)
	s := New(ft, Options{ProtocolVersion: mcp.LatestLegacy, Timeout: 200 * time.Millisecond})
	err := s.Connect(testCtx(t))
	var te *TimeoutError
	if !errors.As(err, &te) || te.Method != mcp.MethodInitialize {
		t.Fatalf("Connect = %v, want initialize to time out", err)
	}
	want := "initialize (id 1) timed out after 200ms; closed the connection instead of cancelling it (initialize is never cancelled)"
	if err.Error() != want {
		t.Fatalf("error %q\nwant  %q", err, want)
	}
	if got := methods(ft.srv.sentMessages()); !slices.Equal(got, []string{mcp.MethodInitialize}) {
		t.Fatalf("sent %v, want initialize alone", got)
	}
	select {
	case <-ft.Done():
	case <-time.After(hangGuard):
		t.Fatalf("the connection stayed open after the handshake timed out within %s", hangGuard)
	}
}

// The same over a transport with its own cancellation (MCP-Flow's $/cancel).
func TestInitializeTimeoutNeverCallsCancelRequest(t *testing.T) {
	ft := &flowishTransport{fakeTransport: newFake(t, silentHandshake), cancels: make(chan mcp.CancelledNotificationParams, 4)}
	s := New(ft, Options{Timeout: 200 * time.Millisecond})
	var te *TimeoutError
	if err := s.Connect(testCtx(t)); !errors.As(err, &te) || te.Method != mcp.MethodInitialize {
		t.Fatalf("Connect = %v, want initialize to time out", err)
	}
	select {
	case p := <-ft.cancels:
		t.Fatalf("CancelRequest(%s, %q) for a timed-out initialize", p.RequestID, p.Reason)
	default:
	}
}

// Session.Cancel of an initialize sent by hand ends the wait and sends
// nothing.
func TestCancelOfInitializeSendsNothing(t *testing.T) {
	cancels := make(chan *jsonrpc.Message, 4)
	arrived := make(chan jsonrpc.ID, 1)
	s, ft := connect(t, silentServer(cancels, func(_ *fakeServer, m *jsonrpc.Message) { arrived <- *m.ID }), Options{})
	errc := make(chan error, 1)
	go func() {
		_, err := s.Call(testCtx(t), mcp.MethodInitialize, mcp.InitializeParams{ProtocolVersion: mcp.LatestLegacy})
		errc <- err
	}()
	id := <-arrived
	if err := s.Cancel(id, "the user gave up"); err != nil {
		t.Fatalf("Cancel = %v", err)
	}
	var ce *CancelledError
	if err := <-errc; !errors.As(err, &ce) {
		t.Fatalf("Call = %v, want a CancelledError", err)
	}
	for _, m := range ft.srv.sentMessages() {
		if m.Method == mcp.MethodNotifyCancelled {
			t.Fatalf("sent %s for initialize", m.Raw)
		}
	}
}

// The server/discover probe waits no longer than the idle limit; when
// initialize then times out too, the error says how long each waited. The
// test's own bound is shorter than the probe's old fixed 10 s.
func TestDiscoverProbeObeysTheIdleLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := newFake(t, silentHandshake)
		s := New(ft, Options{Timeout: 300 * time.Millisecond})
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		err := s.Connect(ctx)
		want := "the server/discover probe got no answer in 300ms, then initialize (id 2) timed out after 300ms; closed the connection instead of cancelling it (initialize is never cancelled)"
		var te *TimeoutError
		if err == nil || err.Error() != want || !errors.As(err, &te) {
			t.Fatalf("Connect = %v\nwant %q", err, want)
		}
		// Neither is cancelled: initialize never is, and the probe is
		// forgotten, as no session exists for a cancellation to belong to.
		sent := ft.srv.sentMessages()
		if got := methods(sent); !slices.Equal(got, []string{mcp.MethodDiscover, mcp.MethodInitialize}) {
			t.Fatalf("sent %v", got)
		}
	})
}

// slowModernStart plays a 2026-07-28 server slower to start than the
// probe's wait: it answers server/discover only once initialize has
// arrived, then refuses that initialize as a duplicate.
func slowModernStart(s *fakeServer) {
	var probe *jsonrpc.ID
	for m, ok := s.next(); ok; m, ok = s.next() {
		switch m.Method {
		case mcp.MethodDiscover:
			probe = m.ID
		case mcp.MethodInitialize:
			s.result(*probe, discoverResult(mcp.Modern))
			s.fail(*m.ID, 0, `duplicate "initialize" received`)
		case "ping":
			s.result(*m.ID, map[string]any{})
		}
	}
}

// A probe that timed out is not given up while initialize runs: the late
// 2026-07-28 answer wins over the initialize the server then refuses.
func TestLateProbeAnswerWinsOverRefusedInitialize(t *testing.T) {
	ft := newFake(t, slowModernStart)
	s := New(ft, Options{Timeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("Connect = %v, want the late server/discover answer to win", err)
	}
	if s.Era() != EraModern || s.ServerInfo().Name != "modern-fake" {
		t.Fatalf("era %s, server %+v; want the modern one", s.Era(), s.ServerInfo())
	}
	for _, m := range ft.srv.sentMessages() {
		if m.Method == mcp.MethodNotifyCancelled {
			t.Fatalf("sent %s", m.Raw)
		}
	}
}

// The server taking the whole request is a sign of life: a send that
// used most of the idle limit leaves the answer a whole one.
func TestSendCompletionRestartsTheIdleLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const slow = 600 * time.Millisecond
		ft := newFake(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
			if m.Kind() == jsonrpc.KindRequest {
				time.Sleep(slow)
				srv.result(*m.ID, map[string]bool{"ok": true})
			}
		}))
		s := New(ft, Options{Timeout: time.Second})
		t.Cleanup(func() { _ = s.Close() })
		if err := s.Connect(testCtx(t)); err != nil {
			t.Fatal(err)
		}
		ft.srv.mu.Lock()
		ft.srv.slow = slow
		ft.srv.mu.Unlock()
		if _, err := s.Call(testCtx(t), "slowly", nil); err != nil {
			t.Fatalf("a request taken in %s and answered %s later failed: %v", slow, slow, err)
		}
	})
}

// A timer that fires late, when both limits have run out, names the one
// that ran out first: the max time, when progress had moved the idle
// limit past it; the idle limit on a tie.
func TestFiredLateNamesTheFirstLimit(t *testing.T) {
	cfg := &callConfig{timeout: 2 * time.Second, hard: 3 * time.Second}
	start := time.Now().Add(-10 * time.Second)
	r := &requestTimers{cfg: cfg, start: start, idleAt: start.Add(5 * time.Second), timer: time.NewTimer(guard.Hang)}
	defer r.stop()
	if expired, maxTime := r.fired(); !expired || !maxTime {
		t.Errorf("idle limit past the max time: expired %v, max time %v; want the max time", expired, maxTime)
	}
	r.idleAt = start.Add(2 * time.Second)
	if expired, maxTime := r.fired(); !expired || maxTime {
		t.Errorf("idle limit before the max time: expired %v, max time %v; want the idle limit", expired, maxTime)
	}
	r.idleAt = start.Add(3 * time.Second)
	if expired, maxTime := r.fired(); !expired || maxTime {
		t.Errorf("a tie: expired %v, max time %v; want the idle limit", expired, maxTime)
	}
}
