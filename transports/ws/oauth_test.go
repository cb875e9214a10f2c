package ws

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// tokenAuth is an OAuth flow that hands out "Bearer good" once the server
// refused, counting the refusals it answered and closed when asked.
type tokenAuth struct {
	mu         sync.Mutex
	token      string
	challenged int
	closed     bool
}

func (a *tokenAuth) Header(context.Context) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.token == "" {
		return ""
	}
	return "Bearer " + a.token
}

func (a *tokenAuth) Challenged(_ context.Context, _ *http.Request, rsp *http.Response) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.challenged++
	a.token = "good"
	return nil
}

func (a *tokenAuth) Close() error {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	return nil
}

// TestUpgradeAuthorizedAfter401: an upgrade the server refuses with 401
// runs the OAuth flow and upgrades again with its token; the capture shows
// both tries and the refusal, the token redacted; Close closes the flow.
func TestUpgradeAuthorizedAfter401(t *testing.T) {
	var mu sync.Mutex
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer good" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1:1/prm"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{Subprotocol}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		_, _, _ = c.Read(r.Context())
	}))
	t.Cleanup(srv.Close)
	auth := &tokenAuth{}
	tr, fr, _ := dial(t, Config{URL: "ws" + strings.TrimPrefix(srv.URL, "http") + "/mcp", Client: httpconf.Client{Auth: auth}})
	mu.Lock()
	got := append([]string(nil), auths...)
	mu.Unlock()
	if len(got) != 2 || got[0] != "" || got[1] != "Bearer good" || auth.challenged != 1 {
		t.Fatalf("upgrades sent Authorization %q after %d refusals; want none, then the token", got, auth.challenged)
	}
	if fr.find("401 Unauthorized") == nil {
		t.Fatal("the refusal is not captured")
	}
	if fr.find("Bearer good") != nil || fr.find("Authorization: Bearer [redacted") == nil {
		t.Fatal("the token is not redacted in the captured upgrade")
	}
	_ = tr.Close()
	if !auth.closed {
		t.Fatal("Close did not close the OAuth flow")
	}
}
