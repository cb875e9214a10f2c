package oauth

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/tokenstore"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// TestCorruptStoredTokenIsNotSent: a stored token holding control
// characters is never put in a header; the user is told to forget it
// with `mcpscope auth logout`, and the server's 401 authorizes anew, so
// the run goes on and the store is mended.
func TestCorruptStoredTokenIsNotSent(t *testing.T) {
	t.Setenv("BROWSER", oauthtest.BrowserProgram(t))
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true})
	store := tokenstore.Open(t.TempDir(), nil)
	if err := store.Save(tokenstore.Entry{
		Issuer: srv.Issuer, Resource: srv.MCPURL, ClientID: "c", TokenURL: srv.TokenEndpoint,
		AccessToken: "stored\r\nX-Injected: 1", TokenType: "Bearer", Expiry: time.Now().Add(time.Hour), Saved: time.Now(),
	}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var said []string
	f, err := New(Config{Resource: srv.MCPURL, Store: store, Say: func(s string) { mu.Lock(); said = append(said, s); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mu.Lock()
	hint := strings.Join(said, "\n")
	mu.Unlock()
	if !strings.Contains(hint, "mcpscope auth logout "+srv.MCPURL) || !strings.Contains(hint, "control characters") {
		t.Errorf("said %q, want the corruption named with mcpscope auth logout", hint)
	}
	if v := f.Header(context.Background()); strings.ContainsAny(v, "\r\n") {
		t.Fatalf("Header is %q", v)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.MCPURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if v := f.Header(context.Background()); v != "" {
		req.Header.Set("Authorization", v)
	}
	rsp, err := (&http.Client{Transport: &bearer.RoundTripper{Base: http.DefaultTransport, Auth: f}}).Do(req)
	if err != nil {
		t.Fatalf("the request failed: %v", err)
	}
	rsp.Body.Close()
	if rsp.StatusCode != http.StatusOK {
		t.Fatalf("answered %s after authorizing anew", rsp.Status)
	}
	entries, err := store.Find(srv.MCPURL)
	if err != nil || len(entries) == 0 || strings.ContainsAny(entries[0].AccessToken, "\r\n") {
		t.Fatalf("the store holds %d entries (%v), the newest not sendable", len(entries), err)
	}
}
