package mock

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// Two clients without a session (2026-07-28) get the same answer: each
// request is matched on its own, from the first recorded match.
func TestHTTPHandlerSessionlessClientsAreIndependent(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(NewHTTPHandler(load(t, session)))
	defer srv.Close()
	_, _, a := post(t, srv.URL+Path, "", echoRequest)
	_, _, b := post(t, srv.URL+Path, "", echoRequest)
	if a != b || !strings.Contains(a, `"first"`) {
		t.Errorf("client A: %s\nclient B: %s", a, b)
	}
}

// A session in use is kept while more than maxSessions others come and
// go: the least recently used is forgotten.
func TestHTTPHandlerForgetsTheLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(NewHTTPHandler(load(t, session)))
	defer srv.Close()
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	_, h, _ := post(t, srv.URL+Path, "", initializeRequest)
	busy := h.Get(headerSession)
	_, h, _ = post(t, srv.URL+Path, "", initializeRequest)
	idle := h.Get(headerSession)
	for range maxSessions {
		post(t, srv.URL+Path, busy, ping)
		post(t, srv.URL+Path, "", initializeRequest)
	}
	if status, _, body := post(t, srv.URL+Path, busy, ping); status != 200 {
		t.Errorf("the session in use: %d %s", status, body)
	}
	if status, _, _ := post(t, srv.URL+Path, idle, ping); status != 404 {
		t.Errorf("the idle session: %d, want 404", status)
	}
}
