package httprelay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

// held waits for the session to hold a paused message and returns it.
func held(t *testing.T, s *proxy.Session) proxy.Held {
	t.Helper()
	changed, cancel := s.Store().Subscribe()
	defer cancel()
	hang := time.NewTimer(guard.Hang)
	defer hang.Stop()
	for {
		if h := s.Held(); len(h) > 0 {
			return h[0]
		}
		select {
		case <-hang.C:
			t.Fatal("no message was paused")
		case <-changed:
		}
	}
}

// A paused call edited by a viewer goes to the server as edited (posted in
// the host's request's place), and a paused answer event edited goes to
// the host as an event of its stream; a dropped notification leaves the
// host's POST accepted with nothing sent.
func TestProxyHTTPSteer(t *testing.T) {
	bodies := make(chan string, 4)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- string(b)
		w.Header().Set("Content-Type", "text/event-stream")
		flush(w, resultEvent)
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	if err := p.Sess.PauseOn([]proxy.Filter{{Method: "tools/call"}}); err != nil {
		t.Fatal(err)
	}
	type reply struct {
		status int
		body   string
	}
	got := make(chan reply, 1)
	go func() {
		rsp, err := http.Post(p.URL, "application/json", strings.NewReader(callBody))
		if err != nil {
			got <- reply{body: err.Error()}
			return
		}
		defer rsp.Body.Close()
		b, _ := io.ReadAll(rsp.Body)
		got <- reply{rsp.StatusCode, string(b)}
	}()
	edited := strings.Replace(callBody, `"slow"`, `"fast"`, 1)
	h := held(t, p.Sess)
	if err := p.Sess.Decide(h.N, proxy.Decision{Body: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	if b := <-bodies; b != edited {
		t.Fatalf("the server got %q, not the edited call", b)
	}
	// The answer matches the filter too (by its request's method).
	h = held(t, p.Sess)
	answer := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"edited"}]}}`
	if err := p.Sess.Decide(h.N, proxy.Decision{Body: []byte(answer)}); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.status != http.StatusOK || r.body != "event: message\ndata: "+answer+"\n\n" {
		t.Fatalf("the host got %d %q", r.status, r.body)
	}

	if err := p.Sess.PauseOn([]proxy.Filter{{Method: "notifications/*"}}); err != nil {
		t.Fatal(err)
	}
	go func() {
		rsp, err := http.Post(p.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		if err != nil {
			got <- reply{body: err.Error()}
			return
		}
		rsp.Body.Close()
		got <- reply{status: rsp.StatusCode}
	}()
	h = held(t, p.Sess)
	if err := p.Sess.Decide(h.N, proxy.Decision{Drop: true}); err != nil {
		t.Fatal(err)
	}
	if r := <-got; r.status != http.StatusAccepted {
		t.Fatalf("a dropped notification: the host got %d %s", r.status, r.body)
	}
	select {
	case b := <-bodies:
		t.Fatalf("the server got the dropped notification %q", b)
	default:
	}
}
