package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// TestRefreshRefusesOversizedTokenAnswer: a token endpoint answering 5 MB
// is refused for its size, with the limit, instead of being cut short
// into "unexpected end of JSON input".
func TestRefreshRefusesOversizedTokenAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"` + strings.Repeat("a", 5<<20) + `","token_type":"bearer"}`))
	}))
	defer srv.Close()
	f, err := New(Config{Resource: "http://127.0.0.1:1/mcp", Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.oc = &oauth2.Config{ClientID: "c", Endpoint: oauth2.Endpoint{TokenURL: srv.URL + "/token", AuthStyle: oauth2.AuthStyleInParams}}
	f.entry.RefreshToken = "refresh-1"
	err = f.refresh(context.Background())
	if err == nil || !strings.Contains(err.Error(), "over 1 MiB") || strings.Contains(err.Error(), "unexpected end") {
		t.Fatalf("got %v, want the answer refused for its size", err)
	}
}

// TestRefreshNotRedirectedElsewhere: a token endpoint that redirects the
// refresh (307, which keeps the body and its refresh token) to another
// origin is not followed there.
func TestRefreshNotRedirectedElsewhere(t *testing.T) {
	var reached atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"a","token_type":"bearer"}`))
	}))
	defer elsewhere.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/token", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	f, err := New(Config{Resource: srv.URL + "/mcp", Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.oc = &oauth2.Config{ClientID: "c", ClientSecret: "s3cret", Endpoint: oauth2.Endpoint{TokenURL: srv.URL + "/token", AuthStyle: oauth2.AuthStyleInHeader}}
	f.entry.RefreshToken = "refresh-1"
	err = f.refresh(context.Background())
	if err == nil || !strings.Contains(err.Error(), "redirected to another origin") || !strings.Contains(err.Error(), elsewhere.URL) {
		t.Fatalf("got %v, want the redirect to %s refused", err, elsewhere.URL)
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("the other origin got %d token requests", n)
	}
}
