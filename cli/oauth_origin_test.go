package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
)

// foreignOrigin is a server on an origin of its own that answers every
// request 401 with a Bearer challenge, as a redirect's target that would
// have the client's token, and records what it was sent.
type foreignOrigin struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD PATH Authorization"
}

// startForeignOrigin serves a foreignOrigin for the rest of t.
func startForeignOrigin(t *testing.T) *foreignOrigin {
	o := &foreignOrigin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.seen = append(o.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		o.mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+o.URL+`/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(o.Close)
	return o
}

// requests returns what the server was sent.
func (o *foreignOrigin) requests() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.seen...)
}

// TestOAuthTokenStaysAtItsOrigin: an authorized POST redirected (307) to
// another origin that answers 401 neither sends the token there, nor a
// refreshed one, nor discovers or registers there; the run fails naming
// the redirect and the origin.
func TestOAuthTokenStaysAtItsOrigin(t *testing.T) {
	oauthEnv(t)
	elsewhere := startForeignOrigin(t)
	srv := oauthtest.Start(t, oauthtest.Options{DCR: true, RefreshTokens: true, MCPHandler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/mcp", http.StatusTemporaryRedirect)
	})})
	r := mcpscope(t, "tools", "--timeout", "20s", srv.MCPURL)
	r.mustExit(t, ExitConnection)
	got := elsewhere.requests()
	if len(got) == 0 {
		t.Fatal("the redirect was not followed at all")
	}
	for _, s := range got {
		if strings.Contains(s, "Bearer") || !strings.HasPrefix(s, "POST /mcp ") {
			t.Errorf("the other origin was sent %q", s)
		}
	}
	for _, want := range []string{"redirected the request (307) to " + elsewhere.URL + "/mcp", "another origin than " + srv.MCPURL} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
		}
	}
	if n := len(seen(srv, "POST", "/token")); n != 1 {
		t.Errorf("%d token requests, want the authorization's only (no refresh for the other origin)", n)
	}
}
