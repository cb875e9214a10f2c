package mcphttp

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A stream cut after an event with an id is resumed with GET and
// Last-Event-ID after the server's retry; the answer is delivered once,
// even when the server replays it.
func TestResumeAfterCutStream(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	var (
		mu  sync.Mutex
		cut time.Time
	)
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		put("id: e1\nretry: 50\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
		mu.Lock()
		cut = time.Now()
		mu.Unlock()
	})
	var resumed time.Duration
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		if r.Header.Get(headerLastID) == "" {
			http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
			return
		}
		mu.Lock()
		resumed = time.Since(cut)
		mu.Unlock()
		put := openSSE(w)
		answer := `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`
		put(event("e2", answer))
		put(event("e3", answer)) // a replay
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "slow"}))
	if m := r.in.next(t); m.Method != mcp.MethodNotifyProgress {
		t.Fatalf("first delivery = %s", m.Raw)
	}
	if m := r.in.next(t); !m.IsResponse() || m.ID.Key() != jsonrpc.IntID(1).Key() {
		t.Fatalf("second delivery = %s", m.Raw)
	}
	get := f.await(1, "resuming GET", method(http.MethodGet))[0]
	if got := get.Header.Get(headerLastID); got != "e1" {
		t.Errorf("Last-Event-ID = %q, want e1", got)
	}
	mu.Lock()
	waited := resumed
	mu.Unlock()
	if waited < 50*time.Millisecond {
		t.Errorf("resumed %s after the cut, before the server's retry of 50ms", waited)
	}
	if w := r.warn.with(t, "resuming"); !strings.Contains(w, `"e1"`) || !strings.Contains(w, "50ms") {
		t.Errorf("warning %q", w)
	}
	dup := r.frame(t, "the replayed answer's frame", func(f *capture.Frame) bool {
		return strings.HasPrefix(string(f.Raw), "id: e3")
	})
	if dup.Err == nil || !strings.Contains(dup.Err.Error(), "second answer") || !strings.Contains(dup.Conn, "GET") {
		t.Errorf("replayed answer: Err %v, Conn %q", dup.Err, dup.Conn)
	}
	_ = r.tr.Close()
	r.in.empty(t)
}

// A stream cut with no event id cannot be resumed: the request fails at
// once, saying so.
func TestCutStreamWithoutIDFailsAtOnce(t *testing.T) {
	f := newFake(t)
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		put := openSSE(w)
		put(": working\n\n")
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "slow"}))
	xe := exchangeError(t, r.in.next(t))
	if !strings.Contains(xe.Error(), "no event id to resume from") {
		t.Errorf("error = %v", xe)
	}
	if gets := f.requests(method(http.MethodGet)); len(gets) != 0 {
		t.Errorf("%d GETs for a stream with no id", len(gets))
	}
}

// A stream that breaks again on every resumption fails the request after
// ResumeAttempts of them.
func TestResumeAttemptsExhausted(t *testing.T) {
	noLeaks(t)
	f := newFake(t)
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, _ *jsonrpc.Message) {
		openSSE(w)("id: a\nretry: 1\ndata:\n\n")
	})
	f.on(http.MethodGet, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		if r.Header.Get(headerLastID) == "b1" {
			http.Error(w, "gone", http.StatusNotFound) // a failed resumption counts too
			return
		}
		openSSE(w)("id: b1\n\n")
	})
	r := newRig(t, f.URL(), func(c *Config) { c.ResumeAttempts = 3 })
	r.send(t, request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "slow"}))
	xe := exchangeError(t, r.in.next(t))
	if !strings.Contains(xe.Error(), "broke 3 times in a row") {
		t.Errorf("error = %v", xe)
	}
	if gets := f.requests(method(http.MethodGet)); len(gets) != 3 {
		t.Errorf("%d resuming GETs, want 3", len(gets))
	}
}

// backoff doubles from the first wait up to its cap.
func TestBackoffIsCapped(t *testing.T) {
	for attempt, want := range map[int]time.Duration{1: 250 * time.Millisecond, 2: 500 * time.Millisecond, 3: time.Second, 9: 2 * time.Second} {
		if got := backoff(attempt, 2*time.Second); got != want {
			t.Errorf("backoff(%d) = %s, want %s", attempt, got, want)
		}
	}
}
