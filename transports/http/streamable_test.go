package mcphttp

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// An SSE answer: the priming event (an id, empty data) and heartbeat
// comments are captured as frames and delivered as nothing; the
// notification that comes first and then the answer are delivered in
// order.
func TestSSEAnswerSkipsPrimingAndHeartbeats(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		put := openSSE(w)
		put("id: p0\ndata:\n\n")
		put(": heartbeat\n\n")
		put(event("p1", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`))
		put(event("p2", resultOf(m, `{"content":[]}`)))
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "slow"}))
	if m := r.in.next(t); m.Method != mcp.MethodNotifyProgress {
		t.Fatalf("first delivery = %s, want the progress notification", m.Raw)
	}
	if m := r.in.next(t); !m.IsResponse() || m.ID.Key() != jsonrpc.IntID(1).Key() {
		t.Fatalf("second delivery = %s, want the answer", m.Raw)
	}
	beat := r.frame(t, "the heartbeat's frame", func(f *capture.Frame) bool {
		return f.Dir == capture.In && f.Chan.Kind == capture.Control && string(f.Raw) == ": heartbeat\n\n"
	})
	if beat.Msg != nil || beat.Err != nil || len(beat.Fields) == 0 || beat.Fields[0].Name != "comment" {
		t.Errorf("heartbeat frame: Msg %v, Err %v, Fields %+v", beat.Msg, beat.Err, beat.Fields)
	}
	prime := r.frame(t, "the priming event's frame", func(f *capture.Frame) bool {
		return f.Dir == capture.In && strings.HasPrefix(string(f.Raw), "id: p0")
	})
	if prime.Msg != nil || prime.Err != nil {
		t.Errorf("priming frame: Msg %v, Err %v", prime.Msg, prime.Err)
	}
	_ = r.tr.Close()
	r.in.empty(t)
}

// A batch in one event delivers each of its messages.
func TestSSEBatchDeliversEachMessage(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		put := openSSE(w)
		put(event("", fmt.Sprintf(`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}},%s]`,
			resultOf(m, `{"content":[]}`))))
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 4, mcp.MethodToolsCall, map[string]any{"name": "batch"}))
	if m := r.in.next(t); m.Method != mcp.MethodNotifyMessage {
		t.Fatalf("first delivery = %s", m.Raw)
	}
	if m := r.in.next(t); !m.IsResponse() {
		t.Fatalf("second delivery = %s", m.Raw)
	}
}

// A notification is accepted with 202 and nothing is delivered; a 202 to a
// request fails it at once.
func TestAcceptedNotificationAndAcceptedRequest(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodToolsList, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		w.WriteHeader(http.StatusAccepted)
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, notification(t, "notifications/roots/list_changed", nil))
	r.send(t, request(t, 7, mcp.MethodToolsList, nil))
	m := r.in.next(t)
	xe := exchangeError(t, m)
	if m.ID.Key() != jsonrpc.IntID(7).Key() || xe.Status != http.StatusAccepted || !strings.Contains(xe.Error(), "sent no answer") {
		t.Fatalf("id %s, status %d, error %v", m.ID, xe.Status, xe)
	}
	_ = r.tr.Close()
	r.in.empty(t)
	if w := r.warn.all(); len(w) != 0 {
		t.Errorf("warnings: %q", w)
	}
}

// Once notifications/initialized is accepted, the standalone GET stream
// opens, and the server's requests on it are delivered.
func TestStandaloneStreamDeliversServerRequests(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		put(event("g1", `{"jsonrpc":"2.0","id":"srv-1","method":"roots/list"}`))
		f.hold(r)
	})
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	m := r.in.next(t)
	if m.Method != mcp.MethodRootsList || m.Kind() != jsonrpc.KindRequest {
		t.Fatalf("delivered %s, want the roots/list request", m.Raw)
	}
	get := f.await(1, "GET", method(http.MethodGet))[0]
	if get.Header.Get("Accept") != "text/event-stream" || get.Header.Get(headerSession) != "s-1" || get.Header.Get(headerVersion) != mcp.ProtocolVersion20251125 {
		t.Errorf("GET headers: %v", get.Header)
	}
	if posts := f.await(1, "initialized", posted(mcp.MethodNotifyInitialized)); len(posts) != 1 {
		t.Fatalf("%d initialized notifications", len(posts))
	}
	// The GET went out before notifications/initialized, so that a server
	// asking roots/list the moment it is initialized finds the stream open.
	for _, s := range f.requests(nil) {
		if s.Method == http.MethodGet {
			break
		}
		if s.Msg != nil && s.Msg.Method == mcp.MethodNotifyInitialized {
			t.Fatal("notifications/initialized went out before the GET stream")
		}
	}
}

// A 405 to the GET means the server offers no standalone stream: it is
// noted in the capture and not asked for again.
func TestStandaloneStreamRefused(t *testing.T) {
	f := newFake(t)
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	note := r.frame(t, "the note of the 405", func(f *capture.Frame) bool {
		return f.Chan.Kind == capture.HTTP && strings.Contains(string(f.Raw), "no standalone stream (405)")
	})
	if !strings.Contains(note.Conn, "GET") {
		t.Errorf("the note is on %q", note.Conn)
	}
	r.send(t, request(t, 2, mcp.MethodPing, nil))
	r.in.next(t)
	if gets := f.requests(method(http.MethodGet)); len(gets) != 1 {
		t.Errorf("%d GETs, want 1", len(gets))
	}
}

// A standalone stream that keeps breaking is given up after
// ResumeAttempts, saying why.
func TestStandaloneStreamGivenUpSaysWhy(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(http.MethodGet, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		openSSE(w)("retry: 1\n\n")
	})
	r := newRig(t, f.URL(), func(c *Config) { c.ResumeAttempts = 2 })
	r.handshake(t)
	w := r.warn.with(t, "standalone GET stream")
	if !strings.Contains(w, "2 times in a row") || !strings.Contains(w, "the server closed it") || strings.Contains(w, "nil") {
		t.Errorf("warning %q", w)
	}
	if n := len(f.requests(method(http.MethodGet))); n != 2 {
		t.Errorf("%d GETs, want 2", n)
	}
}

// A standalone stream the server closes after events with ids is opened
// again, resuming after the last id, as often as the server closes it.
func TestStandaloneStreamReopensAfterACleanEnd(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	n := 0
	f.on(http.MethodGet, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		f.mu.Lock()
		n++
		id := fmt.Sprint(n)
		f.mu.Unlock()
		openSSE(w)("retry: 1\n" + event("ev"+id, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`))
	})
	r := newRig(t, f.URL(), func(c *Config) { c.ResumeAttempts = 2 })
	r.handshake(t)
	gets := f.await(5, "GETs", method(http.MethodGet))
	for i, g := range gets[1:] {
		if want := fmt.Sprintf("ev%d", i+1); g.Header.Get(headerLastID) != want {
			t.Errorf("GET %d: Last-Event-ID %q, want %q", i+2, g.Header.Get(headerLastID), want)
		}
	}
}

// A server that accepts notifications/initialized with 200 and an empty
// JSON body instead of 202 accepted it all the same: the GET stream opens
// and nothing is flagged.
func TestInitializedAcceptedWith200(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodNotifyInitialized, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
	})
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	f.await(1, "the GET stream", method(http.MethodGet))
	r.send(t, request(t, 2, mcp.MethodPing, nil))
	r.in.next(t)
	if bad := r.frames(func(f *capture.Frame) bool { return f.Err != nil }); len(bad) != 0 {
		t.Errorf("flagged frame %q: %v", bad[0].Raw, bad[0].Err)
	}
}
