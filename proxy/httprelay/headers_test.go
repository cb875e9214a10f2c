package httprelay

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

const (
	secretAuth      = "Bearer sekrit-token-1234567"
	secretCookie    = "sid=cookie-value-4567890"
	secretSetCookie = "sid=new-cookie-7890123; HttpOnly"
)

// headerServer checks the headers a host's requests carry, and answers
// with a refusal's headers.
func headerServer(t *testing.T, got chan<- http.Header) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Clone()
		h.Set("X-Method", r.Method)
		got <- h
		w.Header().Set("Mcp-Session-Id", "s-2")
		w.Header().Set("Set-Cookie", secretSetCookie)
		if r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known"`)
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, "no")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Authorization, cookies, the session id and the protocol version pass to
// the server untouched, its answer's headers and status pass back, DELETE
// passes; the recording masks the credentials unless told not to.
func TestProxyHTTPHeadersPass(t *testing.T) {
	for _, noRedact := range []bool{false, true} {
		t.Run(map[bool]string{false: "redacted", true: "no-redact"}[noRedact], func(t *testing.T) {
			got := make(chan http.Header, 4)
			up := headerServer(t, got)
			p := startRelay(t, up.URL+"/mcp", Options{NoRedact: noRedact, Header: http.Header{"X-Flag": {"flag"}, "Authorization": {"Bearer from-the-flag"}}})
			sent := http.Header{
				"Authorization": {secretAuth}, "Cookie": {secretCookie},
				"Mcp-Session-Id": {"s-1"}, "Mcp-Protocol-Version": {"2025-06-18"},
			}
			rsp := post(t, p.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, sent)
			h := <-got
			for k, v := range sent {
				if h.Get(k) != v[0] {
					t.Errorf("the server got %s %q, the host sent %q", k, h.Get(k), v[0])
				}
			}
			if h.Get("X-Flag") != "flag" {
				t.Errorf("the --header the host did not send did not go: %q", h.Get("X-Flag"))
			}
			if rsp.StatusCode != http.StatusUnauthorized || rsp.Header.Get("Set-Cookie") != secretSetCookie ||
				rsp.Header.Get("Mcp-Session-Id") != "s-2" || !strings.HasPrefix(rsp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("the host got %s with %v", rsp.Status, rsp.Header)
			}
			if b, _ := io.ReadAll(rsp.Body); string(b) != "no" {
				t.Errorf("the host got the body %q", b)
			}
			req, _ := http.NewRequest(http.MethodDelete, p.URL, nil)
			req.Header.Set("Mcp-Session-Id", "s-2")
			drsp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			drsp.Body.Close()
			if h := <-got; h.Get("X-Method") != "DELETE" || h.Get("Mcp-Session-Id") != "s-2" || drsp.StatusCode != http.StatusNoContent {
				t.Errorf("DELETE: the server got %v, the host %s", h, drsp.Status)
			}
			p.stop()
			rec, err := os.ReadFile(p.Rec)
			if err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{"sekrit-token-1234567", "cookie-value-4567890", "new-cookie-7890123"} {
				if strings.Contains(string(rec), secret) != noRedact {
					t.Errorf("the recording holds %q: %v (no-redact %v)", secret, !noRedact, noRedact)
				}
			}
			if !strings.Contains(string(rec), "Mcp-Session-Id: s-1") {
				t.Error("the recording does not show the session id")
			}
		})
	}
}

// A body that is no JSON-RPC passes to the server byte for byte, and is
// captured as an error.
func TestProxyHTTPGarbageBody(t *testing.T) {
	const garbage = "this is not json{\x00\xff"
	got := make(chan string, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- string(b)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, garbage, nil)
	if b := <-got; b != garbage {
		t.Fatalf("the server got %q", b)
	}
	b, _ := io.ReadAll(rsp.Body)
	if rsp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "Parse error") {
		t.Fatalf("the host got %s %q", rsp.Status, b)
	}
	out := messages(p.frames(t), capture.Out)
	if len(out) != 1 || string(out[0].Raw) != garbage || out[0].Err == nil {
		t.Fatalf("the host's garbage is not captured as an error: %+v", out)
	}
}

// A server that cannot be reached: the host gets a 502 that says so, and
// the recording says why.
func TestProxyHTTPUpstreamDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := startRelay(t, "http://"+addr+"/mcp", Options{})
	rsp := post(t, p.URL, callBody, nil)
	b, _ := io.ReadAll(rsp.Body)
	if rsp.StatusCode != http.StatusBadGateway || !strings.Contains(string(b), "cannot be reached") {
		t.Fatalf("the host got %s %q", rsp.Status, b)
	}
	if !noteSays(p.frames(t), "connection refused") {
		t.Fatal("the recording does not say why the server was not reached")
	}
}

// A request a viewer injects goes to the server with the host's session
// id and Authorization; its answer is recorded and kept from the host.
func TestProxyHTTPInject(t *testing.T) {
	got := make(chan http.Header, 4)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h := r.Header.Clone()
		h.Set("X-Body", string(b))
		got <- h
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Mcp-Session-Id", "s-9")
		id := "1"
		if strings.Contains(string(b), `"mcpscope-`) {
			id = `"` + strings.Split(strings.Split(string(b), `"id":"`)[1], `"`)[0] + `"`
		}
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{"tools":[]}}`)
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, http.Header{"Authorization": {secretAuth}})
	_, _ = io.ReadAll(rsp.Body)
	<-got
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	id, err := p.Sess.Inject(ctx, []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	h := <-got
	if h.Get("Authorization") != secretAuth || h.Get("Mcp-Session-Id") != "s-9" || !strings.Contains(h.Get("X-Body"), id) {
		t.Fatalf("the injected request went with %v", h)
	}
	kept := false
	for _, f := range waitFor(t, p, proxy.WhatKept) {
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatKept {
			kept = true
		}
	}
	if !kept {
		t.Fatal("the answer to the injected request is not kept from the host")
	}
}

// waitFor stops the relay once the session holds a mark of what, and
// returns the recorded frames.
func waitFor(t *testing.T, p *proxied, what string) []*capture.Frame {
	t.Helper()
	store := p.Sess.Store()
	changed, cancel := store.Subscribe()
	defer cancel()
	hang := time.NewTimer(guard.Hang)
	defer hang.Stop()
	for {
		for _, f := range store.Window(0, store.Len()) {
			if m, ok := proxy.ParseMark(f); ok && m.What == what {
				return p.frames(t)
			}
		}
		select {
		case <-hang.C:
			t.Fatalf("no %s mark came", what)
		case <-changed:
		}
	}
}
