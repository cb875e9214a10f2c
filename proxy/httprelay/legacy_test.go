package httprelay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/proxy"
)

// A legacy stream whose endpoint event is an absolute URL of the server:
// the host is told the proxy's origin instead, and its POSTs there reach
// the server through the proxy; the answer comes on the stream.
func TestProxyHTTPLegacyEndpointRewritten(t *testing.T) {
	posted := make(chan string, 1)
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			flush(w, "event: endpoint\ndata: "+srv.URL+"/message?sessionId=abc\n\n")
			select {
			case b := <-posted:
				flush(w, "event: message\ndata: "+strings.Replace(b, `"method":"ping"`, `"result":{}`, 1)+"\n\n")
			case <-r.Context().Done():
			}
		case "/message":
			b, _ := io.ReadAll(r.Body)
			if r.URL.Query().Get("sessionId") != "abc" {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			w.WriteHeader(http.StatusAccepted)
			_, _ = io.WriteString(w, "Accepted")
			posted <- string(b)
		}
	}))
	defer srv.Close()
	p := startRelay(t, srv.URL+"/sse", Options{})
	req, _ := http.NewRequest(http.MethodGet, p.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	rsp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer rsp.Body.Close()
	rd := sse.NewReader(rsp.Body, sse.Limits{})
	ev, err := rd.Next()
	origin := strings.TrimSuffix(p.URL, "/sse")
	if err != nil || ev.Type != "endpoint" || ev.Data() != origin+"/message?sessionId=abc" {
		t.Fatalf("the host was told the endpoint %q (%v), want the proxy's origin %s", ev.Data(), err, origin)
	}
	prsp := post(t, ev.Data(), `{"jsonrpc":"2.0","id":7,"method":"ping"}`, nil)
	if b, _ := io.ReadAll(prsp.Body); prsp.StatusCode != http.StatusAccepted || string(b) != "Accepted" {
		t.Fatalf("the POST got %s %q", prsp.Status, b)
	}
	ev, err = rd.Next()
	if err != nil || ev.Data() != `{"jsonrpc":"2.0","id":7,"result":{}}` {
		t.Fatalf("the answer on the stream: %q, %v", ev.Data(), err)
	}
	rsp.Body.Close()
	frames := p.frames(t)
	edited := false
	for _, f := range frames {
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatEdited {
			edited = true
		}
	}
	if !edited || !holds(frames, "data: "+srv.URL+"/message") || !holds(messages(frames, capture.In), `"id":7`) {
		t.Fatal("the recording does not hold the server's endpoint event, the rewrite and the answer")
	}
}
