package httprelay

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

// orderedServer serves Streamable HTTP on a loopback port answering
// every request in JSON with an empty result; a tools/call is answered
// only once a tools/list came, so that two hosts' requests are both in
// flight when the first answer comes.
func orderedServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	listed := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
			http.Error(w, "no", http.StatusMethodNotAllowed)
			return
		}
		switch m.Method {
		case "tools/list":
			close(listed)
		case "tools/call":
			select {
			case <-listed:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`))
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

// Two hosts of one relay, each of its own Mcp-Session-Id, both use id 1:
// each answer is matched with its own host's request, so a drop rule on
// tools/call answers drops the first host's answer, not the second's.
func TestProxyHTTPHostsOwnTheirIDs(t *testing.T) {
	p := startRelay(t, orderedServer(t), Options{})
	if err := p.Sess.SetFaults([]proxy.Fault{{Match: proxy.Filter{Method: "tools/call", Dir: "server"}, Action: proxy.FaultDrop}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	post := func(session, body string) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL, strings.NewReader(body))
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", session)
		rsp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer func() { _ = rsp.Body.Close() }()
		b, err := io.ReadAll(rsp.Body)
		return string(b), err
	}
	first := make(chan error, 1)
	go func() {
		_, err := post("A", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`)
		first <- err
	}()
	flowtest.Eventually(t, "the tools/call captured", func() bool {
		for _, f := range p.Sess.Store().Last(p.Sess.Store().Len()) {
			if f.Chan.Kind == capture.Control && f.Msg != nil && f.Msg.Method == "tools/call" {
				return true
			}
		}
		return false
	})
	if b, err := post("B", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); err != nil || !strings.Contains(b, `"result"`) {
		t.Fatalf("the second host's answer: %q %v", b, err)
	}
	select {
	case <-first:
	case <-ctx.Done():
		t.Fatal("the first host's request never ended")
	}
	var dropped []proxy.Mark
	for _, f := range p.Sess.Store().Last(p.Sess.Store().Len()) {
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatFault {
			dropped = append(dropped, m)
		}
	}
	if len(dropped) != 1 || dropped[0].Tool != "echo" || dropped[0].Method != "tools/call" {
		t.Fatalf("fault marks %+v, want one on the tools/call answer", dropped)
	}
}

// legacyServer serves legacy HTTP+SSE on a loopback port: each stream is
// given an endpoint of its own session, and each request posted there is
// answered with an empty result on that stream; a tools/call only once a
// tools/list came.
func legacyServer(t *testing.T) string {
	t.Helper()
	var (
		mu      sync.Mutex
		streams = map[string]chan []byte{}
		n       int
	)
	listed := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sse":
			mu.Lock()
			n++
			id, posted := strconv.Itoa(n), make(chan []byte, 4)
			streams[id] = posted
			mu.Unlock()
			w.Header().Set("Content-Type", "text/event-stream")
			flush(w, "event: endpoint\ndata: /message?sessionId="+id+"\n\n")
			for {
				select {
				case b := <-posted:
					flush(w, "event: message\ndata: "+string(b)+"\n\n")
				case <-r.Context().Done():
					return
				}
			}
		case "/message":
			mu.Lock()
			posted := streams[r.URL.Query().Get("sessionId")]
			mu.Unlock()
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if posted == nil || json.NewDecoder(r.Body).Decode(&m) != nil {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			w.WriteHeader(http.StatusAccepted)
			switch m.Method {
			case "tools/list":
				close(listed)
			case "tools/call":
				go func() {
					<-listed
					posted <- []byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`)
				}()
				return
			}
			posted <- []byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/sse"
}

// Two hosts of one legacy relay both use id 1: the session of each is
// the endpoint its stream gave it, so each answer on a stream is matched
// with the request posted to that stream's endpoint.
func TestProxyHTTPLegacyHostsOwnTheirIDs(t *testing.T) {
	p := startRelay(t, legacyServer(t), Options{})
	if err := p.Sess.SetFaults([]proxy.Fault{{Match: proxy.Filter{Method: "tools/call", Dir: "server"}, Action: proxy.FaultDrop}}); err != nil {
		t.Fatal(err)
	}
	open := func() (*sse.Reader, string) {
		req, _ := http.NewRequest(http.MethodGet, p.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		rsp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = rsp.Body.Close() })
		rd := sse.NewReader(rsp.Body, sse.Limits{})
		ev, err := rd.Next()
		if err != nil || ev.Type != "endpoint" {
			t.Fatalf("no endpoint event: %v", err)
		}
		return rd, strings.TrimSuffix(p.URL, "/sse") + ev.Data()
	}
	_, first := open()
	second, secondAt := open()
	post(t, first, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, nil).Body.Close()
	post(t, secondAt, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil).Body.Close()
	if ev, err := second.Next(); err != nil || !strings.Contains(ev.Data(), `"result"`) {
		t.Fatalf("the second host's answer: %q %v", ev.Data(), err)
	}
	flowtest.Eventually(t, "the tools/call answer dropped by the fault", func() bool {
		for _, f := range p.Sess.Store().Last(p.Sess.Store().Len()) {
			if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatFault && m.Tool == "echo" {
				return true
			}
		}
		return false
	})
}
