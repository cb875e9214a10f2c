package mcphttp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// sseOf waits until the store follows an SSE stream that keep selects, in
// a state other than open unless open is asked for, and returns it.
func sseOf(t *testing.T, st *capture.Store, what string, keep func(capture.SSEStats) bool) capture.SSEStats {
	t.Helper()
	var got capture.SSEStats
	flowtest.Eventually(t, what, func() bool {
		for _, s := range st.SSEStreams() {
			if keep(s) {
				got = s
				return true
			}
		}
		return false
	})
	return got
}

// ofKind selects the streams of kind in state.
func ofKind(kind capture.SSEKind, state capture.SSEState) func(capture.SSEStats) bool {
	return func(s capture.SSEStats) bool { return s.Kind == kind && s.State == state }
}

// A POST answer cut after an event with an id is broken, saying the
// server closed it before the answer; the GET that resumes it names the
// stream and the event it resumes after, counts its events and is done
// once the answer came. Each event's bytes are counted, and the first
// event's frame is found by its Seq.
func TestSSEStreamsOfAResumedAnswer(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	first := "id: e1\nretry: 20\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n"
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		openSSE(w)(first)
	})
	answer := `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		if r.Header.Get(headerLastID) == "" {
			http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
			return
		}
		put := openSSE(w)
		put(event("e2", answer))
		put(": bye\n\n")
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "slow"}))
	r.in.next(t)
	r.in.next(t)
	post := sseOf(t, r.store, "the broken POST answer", ofKind(capture.SSEAnswer, capture.SSEBroken))
	if post.Method != mcp.MethodToolsCall || post.ReqID != "1" || post.Events != 1 || post.Bytes != int64(len(first)) ||
		post.LastID != "e1" || !strings.Contains(post.Conn, "POST") || post.Why != "the server closed it before the answer" {
		t.Errorf("POST answer = %+v", post)
	}
	if fs := r.store.Window(post.FirstSeq, 1); len(fs) != 1 || string(fs[0].Raw) != first {
		t.Errorf("FirstSeq %d is not the stream's first event", post.FirstSeq)
	}
	res := sseOf(t, r.store, "the done resume", ofKind(capture.SSEResume, capture.SSEDone))
	if res.Of != post.Conn || res.After != "e1" || res.Events != 2 || res.LastID != "e2" || res.Method != mcp.MethodToolsCall ||
		!strings.Contains(res.Conn, "GET") || res.Why != "" {
		t.Errorf("resume = %+v (POST on %q)", res, post.Conn)
	}
	if n := len(r.store.SSEStreams()); n != 2 {
		t.Errorf("%d SSE streams, want the POST answer and its resume (the refused GET is none)", n)
	}
}

// A POST answer delivered on its stream, which the server then closes,
// is done; a notification's SSE answer that ends cleanly is done too.
func TestSSEStreamAnsweredIsDone(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodPing, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		openSSE(w)(event("p1", resultOf(m, `{}`)))
	})
	f.on("notifications/hello", func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		openSSE(w)(": nothing\n\n")
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 7, mcp.MethodPing, nil))
	r.in.next(t)
	s := sseOf(t, r.store, "the answered ping", ofKind(capture.SSEAnswer, capture.SSEDone))
	if s.Method != mcp.MethodPing || s.ReqID != "7" || s.Events != 1 || s.LastID != "p1" {
		t.Errorf("ping answer = %+v", s)
	}
	r.send(t, notification(t, "notifications/hello", nil))
	sseOf(t, r.store, "the notification's done stream", func(s capture.SSEStats) bool {
		return s.Method == "notifications/hello" && s.State == capture.SSEDone && s.ReqID == "" && s.Events == 1
	})
}

// A stream mcpscope closes to cancel a 2026-07-28 request is cancelled,
// saying which; so is one read to its end after notifications/cancelled
// in an earlier revision.
func TestSSEStreamCancelled(t *testing.T) {
	for _, modern := range []bool{true, false} {
		t.Run(fmt.Sprint("modern=", modern), func(t *testing.T) {
			noLeaks(t)
			f := newFake(t)
			ended := slowCall(f)
			r := newRig(t, f.URL(), func(c *Config) { c.CancelGrace = 20 * time.Millisecond })
			params := map[string]any{"name": "slow"}
			if modern {
				params = modernParams(params)
			} else {
				r.handshake(t)
			}
			call := request(t, 5, mcp.MethodToolsCall, params)
			r.send(t, call)
			sseOf(t, r.store, "the open answer", ofKind(capture.SSEAnswer, capture.SSEOpen))
			r.cancel(t, *call.ID, "enough", modern)
			awaitEnd(t, ended, "the answer stream")
			s := sseOf(t, r.store, "the cancelled answer", ofKind(capture.SSEAnswer, capture.SSECancelled))
			if s.Why != "to cancel tools/call (id 5)" || s.Events != 1 {
				t.Errorf("cancelled answer = %+v", s)
			}
		})
	}
}

// The standalone GET stream is followed as such; closing the transport
// cancels it, saying the session closed.
func TestSSEGetStreamCancelledOnClose(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		openSSE(w)(event("g1", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`))
		f.hold(r)
	})
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	open := sseOf(t, r.store, "the open GET stream", func(s capture.SSEStats) bool {
		return s.Kind == capture.SSEGet && s.State == capture.SSEOpen && s.Events == 1
	})
	if open.LastID != "g1" || open.After != "" || open.Method != "" {
		t.Errorf("GET stream = %+v", open)
	}
	_ = r.tr.Close()
	s := sseOf(t, r.store, "the cancelled GET stream", ofKind(capture.SSEGet, capture.SSECancelled))
	if s.Why != "the session closed" || s.Conn != open.Conn {
		t.Errorf("closed GET stream = %+v", s)
	}
}

// A GET stream the server ends cleanly is done, and its reconnect, which
// sends the last event id, is a stream of its own that says so.
func TestSSEGetStreamReconnects(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		if r.Header.Get(headerLastID) == "" {
			put("id: g1\nretry: 10\ndata:\n\n")
			return
		}
		f.hold(r)
	})
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	done := sseOf(t, r.store, "the ended GET stream", ofKind(capture.SSEGet, capture.SSEDone))
	again := sseOf(t, r.store, "its reconnect", ofKind(capture.SSEGet, capture.SSEOpen))
	if again.After != "g1" || again.Conn == done.Conn || done.LastID != "g1" {
		t.Errorf("first %+v, reconnect %+v", done, again)
	}
}

// The legacy HTTP+SSE stream is followed; when the server ends it, it is
// broken, since the transport cannot go on without it.
func TestSSELegacyStreamBroken(t *testing.T) {
	noLeaks(t)
	l := newLegacyFake(t, func(string) string { return "/message" })
	s := connect(t, l.srv.URL+"/sse", legacyMode, client.Options{ProtocolVersion: mcp.ProtocolVersion20241105})
	open := sseOf(t, s.rig.store, "the open legacy stream", ofKind(capture.SSELegacy, capture.SSEOpen))
	if open.Events < 2 { // the endpoint event and the initialize answer
		t.Errorf("legacy stream = %+v", open)
	}
	close(l.end)
	got := sseOf(t, s.rig.store, "the broken legacy stream", ofKind(capture.SSELegacy, capture.SSEBroken))
	if !strings.Contains(got.Why, "cannot resume") {
		t.Errorf("legacy stream = %+v", got)
	}
}

// A seed-004 SSE answer is followed: its fragments and heartbeats are
// events, and it is done once its complete event answered the call; one
// that ends before it is broken.
func TestSSEToolsAnswer(t *testing.T) {
	var cut atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := toolsRequestID(t, r)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: result\ndata: {\"content\":[]}\n\n: heartbeat\n\n")
		if !cut.Load() {
			fmt.Fprintf(w, "event: complete\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[]}}\n\n", id)
		}
	}))
	t.Cleanup(srv.Close)
	st := capture.NewStore(capture.Config{})
	tr, err := New(Config{URL: srv.URL + "/tools", Mode: ModeTools, Sink: st})
	if err != nil {
		t.Fatal(err)
	}
	sess := client.New(tr, client.Options{})
	t.Cleanup(func() { _ = sess.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := sess.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	if _, err := sess.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": "echo"}); err != nil {
		t.Fatalf("call: %v", err)
	}
	s := sseOf(t, st, "the done tools answer", ofKind(capture.SSEAnswer, capture.SSEDone))
	if s.Events != 3 || s.Method != mcp.MethodToolsCall {
		t.Errorf("tools answer = %+v", s)
	}
	cut.Store(true)
	if _, err := sess.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": "echo"}); err == nil {
		t.Fatal("a call whose stream ended before complete succeeded")
	}
	s = sseOf(t, st, "the broken tools answer", ofKind(capture.SSEAnswer, capture.SSEBroken))
	if s.Events != 2 || s.Why != "the server closed it before the answer" {
		t.Errorf("cut tools answer = %+v", s)
	}
}
