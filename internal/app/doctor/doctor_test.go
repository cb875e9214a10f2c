package doctor

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// walkURL runs the walk to raw without a session (no connector).
func walkURL(t *testing.T, raw string, cfg Config) checklist.Report {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	cfg.URL, cfg.Transport = u, map[string]string{"http": "http", "https": "http", "ws": "ws", "wss": "ws"}[u.Scheme]
	return Run(context.Background(), cfg)
}

// render prints r with the times masked.
func render(t *testing.T, r checklist.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.Render(&b, checklist.RenderOptions{MaskTimes: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestChecklistGolden(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	out := render(t, walkURL(t, srv.URL+"/mcp", Config{}))
	out = strings.ReplaceAll(out, strings.TrimPrefix(srv.URL, "http://"), "127.0.0.1:PORT")
	goldentest.Check(t, "checklist_not_mcp", out)
}

// silentServer accepts TCP connections and never answers; it returns its
// address.
func silentServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
	})
	return l.Addr().String()
}

func TestStepTimeoutIsATimeout(t *testing.T) {
	r := walkURL(t, "http://"+silentServer(t)+"/mcp", Config{Timeout: 200 * time.Millisecond})
	f := r.Failure()
	if f == nil || f.Step != "http" || f.Class != checklist.Timeout || !strings.Contains(f.Detail, "no answer within --timeout 200ms") {
		t.Fatalf("failure %+v, want an http timeout:\n%s", f, render(t, r))
	}
}

func TestMaxTimeBoundsTheWalk(t *testing.T) {
	r := walkURL(t, "http://"+silentServer(t)+"/mcp", Config{Timeout: guard.Run, MaxTime: 200 * time.Millisecond})
	if f := r.Failure(); f == nil || f.Class != checklist.Timeout || !strings.Contains(f.Detail, "--max-time 200ms") {
		t.Fatalf("failure %+v, want --max-time named:\n%s", f, render(t, r))
	}
}

func TestServerTextIsSanitized(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// C1 CSI and a bidi override: bytes net/http lets through.
		w.Header().Set("WWW-Authenticate", "Bearer realm=\"\u009b31mred\u202e\"")
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	out := render(t, walkURL(t, srv.URL+"/mcp", Config{}))
	if strings.ContainsAny(out, "\u009b\u202e") {
		t.Fatalf("control characters reached the checklist: %q", out)
	}
	if !strings.Contains(out, "✗ auth") {
		t.Fatalf("auth not named:\n%s", out)
	}
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html\u009b2J\u202e")
	}))
	t.Cleanup(page.Close)
	out = render(t, walkURL(t, page.URL+"/mcp", Config{}))
	if strings.ContainsAny(out, "\u009b\u202e") || !strings.Contains(out, "✗ http") {
		t.Fatalf("control characters reached the checklist: %q", out)
	}
}

func TestOriginRefusalNamesTheOrigin(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Origin") != "" {
			http.Error(w, "bad origin", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	r := walkURL(t, srv.URL+"/mcp", Config{Origin: "https://evil.example"})
	f := r.Failure()
	if f == nil || f.Step != "http" || !strings.Contains(f.Fix, "https://evil.example") {
		t.Fatalf("failure %+v, want the Origin named:\n%s", f, render(t, r))
	}
}

func TestWebSocketWithoutUpgradeIsNamed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	r := walkURL(t, "ws://"+strings.TrimPrefix(srv.URL, "http://")+"/mcp", Config{})
	f := r.Failure()
	if f == nil || f.Step != "websocket" || !strings.Contains(f.Detail, "not 101 Switching Protocols") {
		t.Fatalf("failure %+v, want the websocket step:\n%s", f, render(t, r))
	}
}

func TestMetadataURLs(t *testing.T) {
	u, _ := url.Parse("wss://mcp.example/v1/mcp/")
	got := metadataURLs(u, `Bearer error="invalid_token", resource_metadata="https://mcp.example/prm"`)
	want := []string{
		"https://mcp.example/prm",
		"https://mcp.example/.well-known/oauth-protected-resource/v1/mcp",
		"https://mcp.example/.well-known/oauth-protected-resource",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func FuzzMetadataURLs(f *testing.F) {
	f.Add("http://a/b", `Bearer resource_metadata="x"`)
	f.Add("ws://h:1/", `resource_metadata = "`)
	f.Fuzz(func(t *testing.T, raw, header string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		urls := metadataURLs(u, header)
		if len(urls) == 0 || len(urls) > 3 {
			t.Fatalf("%d URLs", len(urls))
		}
	})
}

func TestProbeGoesOnTheConnectionOfTheTCPStep(t *testing.T) {
	// 403: an answer the transport does not follow with the legacy
	// stream, which goes on a connection of its own.
	forbidden := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusForbidden) })
	for _, tlsOn := range []bool{false, true} {
		var opened atomic.Int32
		srv := httptest.NewUnstartedServer(forbidden)
		srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				opened.Add(1)
			}
		}
		if tlsOn {
			srv.StartTLS()
		} else {
			srv.Start()
		}
		r := walkURL(t, srv.URL+"/mcp", Config{Insecure: true})
		srv.Close()
		if f := r.Failure(); f == nil || f.Step != "http" {
			t.Fatalf("TLS %v: failure %+v, want the 403 at http:\n%s", tlsOn, f, render(t, r))
		}
		if n := opened.Load(); n != 1 {
			t.Errorf("TLS %v: the walk opened %d connections, want 1:\n%s", tlsOn, n, render(t, r))
		}
	}
}
