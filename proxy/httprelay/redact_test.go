package httprelay

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
)

// lineHolding is the first record of the recording at path that holds
// s, or "": its header, whose target the command masks, is not read.
func lineHolding(t *testing.T, path, s string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n")[1:] {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// A server that cannot be reached at a URL whose query carries tokens
// (?key=, ?sig=): the note that says so, its annotation and its error
// hold none of them, in the recording nor to the host.
func TestProxyHTTPUnreachableNoteMasksQueryTokens(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := startRelay(t, "http://"+addr+"/mcp?key=SEKRET1&sig=SEKRET2&x=1", Options{})
	rsp := post(t, p.URL, callBody, nil)
	b, _ := io.ReadAll(rsp.Body)
	if rsp.StatusCode != http.StatusBadGateway || strings.Contains(string(b), "SEKRET") || !strings.Contains(string(b), "connection refused") {
		t.Errorf("the host got %s %q", rsp.Status, b)
	}
	if !noteSays(p.frames(t), "connection refused") {
		t.Error("the recording does not say why the server was not reached")
	}
	if l := lineHolding(t, p.Rec, "SEKRET"); l != "" {
		t.Errorf("the recording holds a token: %.400s", l)
	}
}

// unreachable words a failure without the URL the client's error quotes,
// and the error it gives still unwraps to the cause.
func TestUnreachableLeavesOutTheClientsURL(t *testing.T) {
	u, _ := url.Parse("http://u:pw@127.0.0.1:9/mcp?key=SEKRET1")
	err := unreachable(u, &url.Error{Op: "Post", URL: "http://127.0.0.1:9/mcp?key=SEKRET1", Err: syscall.ECONNREFUSED})
	if strings.Contains(err.Error(), "SEKRET") || strings.Contains(err.Error(), "pw") || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("unreachable said %q", err)
	}
}

// An SSE answer's events are recorded with their annotations masked as
// their bytes are: no "data" annotation holds a token a member carries.
func TestProxyHTTPSSEAnnotationsMasked(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "event: other\ndata: {\"access_token\":\"SEKRETX1\"}\n\n")
		_, _ = io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"access_token\":\"SEKRETX2\"}}\n\n")
	}))
	defer up.Close()
	p := startRelay(t, up.URL+"/mcp", Options{})
	rsp := post(t, p.URL, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"password":"SEKRETX3"}}`, nil)
	b, _ := io.ReadAll(rsp.Body)
	if !strings.Contains(string(b), "SEKRETX2") {
		t.Errorf("the host got %q", b) // the host gets the server's bytes as they came
	}
	p.stop()
	if l := lineHolding(t, p.Rec, "SEKRETX"); l != "" {
		t.Errorf("the recording holds a token: %.600s", l)
	}
}
