package mcphttp

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A 404 to a POST in a session says the server forgot it: the transport
// warns, initializes a new session without delivering that answer, says
// initialized, and sends the request again in the new session, where it
// is answered once.
func TestExpiredSessionIsStartedAgain(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	var strays atomic.Int32
	s := connect(t, f.URL(), nil, client.Options{
		ProtocolVersion: mcp.ProtocolVersion20251125,
		OnStrayAnswer:   func(client.StrayAnswer) { strays.Add(1) },
	})
	f.expire("s-1")
	if _, err := s.call(mcp.MethodToolsList, nil); err != nil {
		t.Fatalf("tools/list after the session expired: %v", err)
	}
	lists := f.requests(posted(mcp.MethodToolsList))
	if len(lists) != 2 || lists[0].Header.Get(headerSession) != "s-1" || lists[1].Header.Get(headerSession) != "s-2" {
		t.Fatalf("tools/list went %d times, in sessions %v", len(lists), sessionsOf(lists))
	}
	inits := f.requests(posted(mcp.MethodInitialize))
	if len(inits) != 2 || inits[1].Header.Get(headerSession) != "" {
		t.Fatalf("%d initialize requests; the second in session %q", len(inits), inits[len(inits)-1].Header.Get(headerSession))
	}
	if got := f.requests(posted(mcp.MethodNotifyInitialized)); len(got) != 2 || got[1].Header.Get(headerSession) != "s-2" {
		t.Fatalf("initialized went %d times, in sessions %v", len(got), sessionsOf(got))
	}
	if w := s.rig.warn.with(t, "no longer knows session s-1"); !strings.Contains(w, "tools/list") {
		t.Errorf("warning %q", w)
	}
	if n := strays.Load(); n != 0 {
		t.Errorf("%d stray answers: the second initialize's answer reached the engine", n)
	}
	if got := s.LinkState().SessionID; got != "s-2" {
		t.Errorf("LinkState().SessionID = %q", got)
	}
}

// A new session the server forgets at once fails the request, and the
// transport does not start sessions over and over.
func TestExpiredAgainFails(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	s := connect(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		http.Error(w, "unknown session", http.StatusNotFound)
	})
	f.on(mcp.MethodNotifyInitialized, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		if r.Header.Get(headerSession) != "s-1" {
			http.Error(w, "unknown session", http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	_, err := s.call(mcp.MethodToolsList, nil)
	var xe *client.ExchangeError
	if !errors.As(err, &xe) || xe.Status != http.StatusNotFound || !strings.Contains(err.Error(), "404 again") {
		t.Fatalf("err = %v", err)
	}
	s.rig.warn.with(t, "notifications/initialized")
	if _, err := s.call(mcp.MethodPing, nil); err != nil {
		t.Fatalf("ping: %v", err)
	}
	_ = s.Close()
	if n := len(f.requests(posted(mcp.MethodInitialize))); n != 2 {
		t.Errorf("%d initialize requests, want 2", n)
	}
}

// Requests in flight when the session expires wait for one new session
// and are each sent again in it.
func TestExpiredSessionIsStartedOnceForConcurrentRequests(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	s := connect(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	f.initialized("s-1")
	f.on(mcp.MethodInitialize, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		time.Sleep(50 * time.Millisecond) // lets the second 404 arrive while the new session starts
		w.Header().Set(headerSession, "s-2")
		writeJSON(w, http.StatusOK, resultOf(m, initResult(mcp.ProtocolVersion20251125)))
	})
	// The 404s to the two requests in s-1 go out together.
	inS1 := func(x seen) bool { return posted(mcp.MethodToolsList)(x) && x.Header.Get(headerSession) == "s-1" }
	gate, open := make(chan struct{}), sync.Once{}
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if r.Header.Get(headerSession) == "s-1" {
			if len(f.requests(inS1)) == 2 {
				open.Do(func() { close(gate) })
			}
			<-gate
			http.Error(w, "unknown session", http.StatusNotFound)
			return
		}
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[]}`))
	})
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := s.call(mcp.MethodToolsList, nil)
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("tools/list: %v", err)
		}
	}
	if n := len(f.requests(posted(mcp.MethodInitialize))); n != 2 {
		t.Errorf("%d initialize requests, want 2", n)
	}
	if got := sessionsOf(f.requests(posted(mcp.MethodToolsList))); len(got) != 4 || got[2] != "s-2" || got[3] != "s-2" {
		t.Errorf("tools/list went in sessions %v", got)
	}
}

// When the new session cannot be started, the request that met the
// expired one fails at once, saying why.
func TestExpiredSessionThatCannotStartAgainFails(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	s := connect(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125, Timeout: guard.Run})
	f.expire("s-1")
	f.on(mcp.MethodInitialize, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("<html>down for maintenance</html>"))
	})
	_, err := s.call(mcp.MethodToolsList, nil)
	var xe *client.ExchangeError
	if !errors.As(err, &xe) || !strings.Contains(err.Error(), "starting a new one failed") || !strings.Contains(err.Error(), "503") {
		t.Fatalf("err = %v", err)
	}
}

// Close ends the session with DELETE naming it, and does not wait past
// CloseTimeout for a server that never answers.
func TestCloseDeletesTheSession(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(http.MethodDelete, func(_ http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) { f.hold(r) })
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	if err := r.tr.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := r.tr.Close(); err != nil {
		t.Fatalf("Close again: %v", err)
	}
	del := f.await(1, "DELETE", method(http.MethodDelete))[0]
	if dels := f.requests(method(http.MethodDelete)); len(dels) != 1 {
		t.Fatalf("%d DELETEs, want 1", len(dels))
	}
	if del.Header.Get(headerSession) != "s-1" || del.Path != "/mcp" {
		t.Errorf("DELETE %s in session %q", del.Path, del.Header.Get(headerSession))
	}
	if r.tr.Err() != nil {
		t.Errorf("Err after Close = %v", r.tr.Err())
	}
	if err := r.tr.Send(t.Context(), request(t, 9, mcp.MethodPing, nil)); !errors.Is(err, client.ErrClosed) {
		t.Errorf("Send after Close = %v", err)
	}
}

// No DELETE goes out when the server gave no session.
func TestCloseWithoutSessionSendsNoDelete(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodInitialize, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		writeJSON(w, http.StatusOK, resultOf(m, initResult(mcp.ProtocolVersion20251125)))
	})
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	_ = r.tr.Close()
	if n := len(f.requests(method(http.MethodDelete))); n != 0 {
		t.Errorf("%d DELETEs without a session", n)
	}
}

func sessionsOf(list []seen) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Header.Get(headerSession))
	}
	return out
}

// The new session does not depend on the request that happened to start
// it: when that one is cancelled, the others waiting for the session
// still get it.
func TestNewSessionOutlivesTheRequestThatStartedIt(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	s := connect(t, f.URL(), func(c *Config) { c.CancelGrace = 10 * time.Millisecond },
		client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	f.initialized("s-1")
	seenInit, proceed := make(chan struct{}), make(chan struct{})
	var once sync.Once
	f.on(mcp.MethodInitialize, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		once.Do(func() { close(seenInit) })
		<-proceed
		w.Header().Set(headerSession, "s-2")
		writeJSON(w, http.StatusOK, resultOf(m, initResult(mcp.ProtocolVersion20251125)))
	})
	var inS1 atomic.Int32
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if r.Header.Get(headerSession) == "s-1" {
			if inS1.Add(1) == 2 {
				<-seenInit
			}
			http.Error(w, "unknown session", http.StatusNotFound)
			return
		}
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[]}`))
	})
	type outcome struct {
		id  jsonrpc.ID
		err error
	}
	call := func(ids chan<- jsonrpc.ID, done chan<- outcome) {
		var id jsonrpc.ID
		_, err := s.Call(t.Context(), mcp.MethodToolsList, nil, client.WithTimeout(hangGuard),
			client.WithRounds(func(_ int, got jsonrpc.ID) { id = got; ids <- got }))
		done <- outcome{id, err}
	}
	ids, done := make(chan jsonrpc.ID, 2), make(chan outcome, 2)
	go call(ids, done)
	first := <-ids
	<-seenInit
	go call(ids, done)
	second := <-ids
	s.rig.warn.with(t, "sending tools/list (id "+second.String()+") again")
	if err := s.Cancel(first, "no longer wanted"); err != nil {
		t.Fatal(err)
	}
	flowtest.Eventually(t, "the cancelled request lets go", func() bool {
		s.rig.tr.mu.Lock()
		defer s.rig.tr.mu.Unlock()
		return s.rig.tr.exchanges[first] == nil
	})
	close(proceed)
	for range 2 {
		o := <-done
		var ce *client.CancelledError
		switch {
		case o.id == first && !errors.As(o.err, &ce):
			t.Errorf("the cancelled tools/list: %v", o.err)
		case o.id == second && o.err != nil:
			t.Errorf("the tools/list waiting for the new session: %v", o.err)
		}
	}
}

// A session started again after a 404 sends initialize under an id of the
// transport's own, and opens its own standalone GET stream: the old
// session's stream ends, and no GET of the new session carries a
// Last-Event-ID of the old one, even when the server ends the old stream
// and takes its time answering the new initialize.
func TestRestartedSessionOpensItsOwnGETStream(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	forgotten := make(chan struct{})
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		put("id: " + r.Header.Get(headerSession) + "-e1\ndata: \n\n")
		if r.Header.Get(headerSession) == "s-1" {
			select { // the server ends the stream of the session it forgot
			case <-forgotten:
				return
			case <-r.Context().Done():
				return
			}
		}
		f.hold(r)
	})
	var inits atomic.Int32
	f.on(mcp.MethodInitialize, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		n := inits.Add(1)
		w.Header().Set(headerSession, fmt.Sprintf("s-%d", n))
		if n == 1 {
			writeJSON(w, http.StatusOK, resultOf(m, initResult(mcp.ProtocolVersion20251125)))
			return
		}
		put := openSSE(w) // the new session's id is out; its answer comes later
		select {
		case <-time.After(800 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		put("data: " + resultOf(m, initResult(mcp.ProtocolVersion20251125)) + "\n\n")
	})
	s := connect(t, f.URL(), nil, client.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	inSession := func(id string) func(seen) bool {
		return func(r seen) bool { return r.Method == http.MethodGet && r.Header.Get(headerSession) == id }
	}
	f.await(1, "GET in s-1", inSession("s-1"))
	f.expire("s-1")
	close(forgotten)
	if _, err := s.call(mcp.MethodToolsList, nil); err != nil {
		t.Fatalf("tools/list after the session expired: %v", err)
	}
	f.await(1, "GET in s-2", inSession("s-2"))
	all := f.requests(posted(mcp.MethodInitialize))
	if len(all) != 2 {
		t.Fatalf("%d initialize requests, want 2", len(all))
	}
	if first, again := all[0].Msg.ID.String(), all[1].Msg.ID.String(); again != jsonrpc.StringID("mcpscope-initialize-1").String() || first == again {
		t.Errorf("initialize ids %s then %s, want a new id of the transport's own", first, again)
	}
	_ = s.Close()
	for _, g := range f.requests(inSession("s-2")) {
		if id := g.Header.Get(headerLastID); strings.HasPrefix(id, "s-1") {
			t.Errorf("a GET in session s-2 resumed the old session's stream after %s", id)
		}
	}
}

// A request the engine gives up on while the new session starts is not
// sent again in it, although its stream is still read for CancelGrace
// (the 2025-11-25 revision cancels with notifications/cancelled): the
// server never runs it twice, and its answer reaches no one.
func TestCancelledRequestIsNotSentAgainInTheNewSession(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	var strays atomic.Int32
	s := connect(t, f.URL(), func(c *Config) { c.CancelGrace = time.Hour }, client.Options{
		ProtocolVersion: mcp.ProtocolVersion20251125,
		OnStrayAnswer:   func(client.StrayAnswer) { strays.Add(1) },
	})
	f.initialized("s-1")
	seenInit, proceed := make(chan struct{}), make(chan struct{})
	var once sync.Once
	f.on(mcp.MethodInitialize, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		once.Do(func() { close(seenInit) })
		<-proceed
		w.Header().Set(headerSession, "s-2")
		writeJSON(w, http.StatusOK, resultOf(m, initResult(mcp.ProtocolVersion20251125)))
	})
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if r.Header.Get(headerSession) == "s-1" {
			http.Error(w, "unknown session", http.StatusNotFound)
			return
		}
		writeJSON(w, http.StatusOK, resultOf(m, `{"tools":[]}`))
	})
	ids, done := make(chan jsonrpc.ID, 1), make(chan error, 1)
	go func() {
		_, err := s.Call(t.Context(), mcp.MethodToolsList, nil, client.WithTimeout(hangGuard),
			client.WithRounds(func(_ int, id jsonrpc.ID) { ids <- id }))
		done <- err
	}()
	id := <-ids
	<-seenInit
	if err := s.Cancel(id, "no longer wanted"); err != nil {
		t.Fatal(err)
	}
	var ce *client.CancelledError
	if err := <-done; !errors.As(err, &ce) {
		t.Fatalf("the cancelled tools/list: %v", err)
	}
	close(proceed)
	flowtest.Eventually(t, "the cancelled request lets go", func() bool {
		s.rig.tr.mu.Lock()
		defer s.rig.tr.mu.Unlock()
		return s.rig.tr.exchanges[id] == nil
	})
	if got := sessionsOf(f.requests(posted(mcp.MethodToolsList))); len(got) != 1 {
		t.Errorf("tools/list went in sessions %v, want s-1 alone", got)
	}
	if n := strays.Load(); n != 0 {
		t.Errorf("%d stray answers", n)
	}
}
