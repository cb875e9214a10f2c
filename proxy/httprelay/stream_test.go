package httprelay

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

const (
	progressEvent = "id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n"
	resultEvent   = "id: 2\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n\n"
	callBody      = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":1}}}`
)

// post sends body to url as a host does and returns the response.
func post(t *testing.T, url, body string, h http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header[k] = v
	}
	rsp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rsp.Body.Close() })
	return rsp
}

// An SSE answer reaches the host event by event: the server sends its
// progress and holds its result until the host has seen that progress,
// which it could not if the relay waited for the answer's end.
func TestProxyHTTPEventByEvent(t *testing.T) {
	seen := make(chan struct{})
	held := make(chan bool, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		flush(w, progressEvent)
		select {
		case <-seen:
			held <- true
		case <-time.After(guard.Hang):
			held <- false
		}
		flush(w, resultEvent)
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, callBody, nil)
	if ct := rsp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	var got bytes.Buffer
	rd := sse.NewReader(io.TeeReader(rsp.Body, &got), sse.Limits{})
	ev, err := rd.Next()
	if err != nil || !strings.Contains(ev.Data(), "notifications/progress") {
		t.Fatalf("first event %q, %v", ev.Data(), err)
	}
	close(seen)
	ev, err = rd.Next()
	if err != nil || !strings.Contains(ev.Data(), `"result"`) {
		t.Fatalf("second event %q, %v", ev.Data(), err)
	}
	if !<-held {
		t.Fatal("the host saw the progress only after the server gave up holding its result")
	}
	if _, err := rd.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the result: %v", err)
	}
	if want := progressEvent + resultEvent; got.String() != want {
		t.Fatalf("the host got %q, the server sent %q", got.String(), want)
	}
	in := messages(p.frames(t), capture.In)
	if len(in) != 2 || string(in[0].Raw) != progressEvent || string(in[1].Raw) != resultEvent {
		t.Fatalf("recorded server→host frames: %d", len(in))
	}
}

// The GET stream passes, and a GET with Last-Event-ID resumes it: the
// server gets the header and the host the events after it.
func TestProxyHTTPGetStreamResume(t *testing.T) {
	lastIDs := make(chan string, 2)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		lastIDs <- r.Header.Get("Last-Event-ID")
		w.Header().Set("Content-Type", "text/event-stream")
		if r.Header.Get("Last-Event-ID") == "" {
			flush(w, progressEvent)
			return // the stream breaks off after event 1
		}
		flush(w, resultEvent)
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	get := func(lastID string) string {
		req, _ := http.NewRequest(http.MethodGet, p.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		if lastID != "" {
			req.Header.Set("Last-Event-ID", lastID)
		}
		rsp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer rsp.Body.Close()
		b, err := io.ReadAll(rsp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := get(""); got != progressEvent {
		t.Fatalf("the GET stream gave %q", got)
	}
	if got := get("1"); got != resultEvent {
		t.Fatalf("the resumed stream gave %q", got)
	}
	if a, b := <-lastIDs, <-lastIDs; a != "" || b != "1" {
		t.Fatalf("the server got Last-Event-ID %q then %q", a, b)
	}
	if in := messages(p.frames(t), capture.In); len(in) != 2 {
		t.Fatalf("%d server→host messages recorded, want 2", len(in))
	}
}

// A server that dies in the middle of an SSE answer: the host sees its
// stream end broken, and the recording keeps the event that came and says
// why the rest did not.
func TestProxyHTTPServerDiesMidAnswer(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		flush(w, progressEvent)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, callBody, nil)
	rd := sse.NewReader(rsp.Body, sse.Limits{})
	if ev, err := rd.Next(); err != nil || !strings.Contains(ev.Data(), "progress") {
		t.Fatalf("first event %q, %v", ev.Data(), err)
	}
	if _, err := rd.Next(); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("the host's stream ended with %v, not broken", err)
	}
	frames := p.frames(t)
	if in := messages(frames, capture.In); len(in) != 1 || string(in[0].Raw) != progressEvent {
		t.Fatalf("recorded %d server→host messages", len(in))
	}
	if !noteSays(frames, "broke off") {
		t.Fatal("the recording does not say the answer broke off")
	}
}

// noteSays says whether an HTTP note of frames holds s and carries an
// error.
func noteSays(frames []*capture.Frame, s string) bool {
	for _, f := range frames {
		if f.Chan.Kind == capture.HTTP && f.Err != nil && strings.Contains(string(f.Raw), s) {
			return true
		}
	}
	return false
}
