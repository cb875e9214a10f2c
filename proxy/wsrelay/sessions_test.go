package wsrelay

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

// answerServer serves a WebSocket on a loopback port that answers every
// request with an empty result; a tools/call is answered only once an
// initialize came on some connection, so that two hosts' requests are
// both in flight when the first answer comes.
func answerServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	initialized := make(chan struct{})
	var once sync.Once
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		for {
			_, b, err := c.Read(r.Context())
			if err != nil {
				return
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(b, &m) != nil || m.ID == nil {
				continue
			}
			switch m.Method {
			case "initialize":
				once.Do(func() { close(initialized) })
			case "tools/call":
				select {
				case <-initialized:
				case <-r.Context().Done():
					return
				}
			}
			if err := c.Write(r.Context(), websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{}}`)); err != nil {
				return
			}
		}
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "ws://" + ln.Addr().String() + "/mcp"
}

// Two hosts on one relay both use id 1: each answer is matched with its
// own connection's request, so a drop rule on tools/call answers drops
// the first host's answer and lets the second host's initialize answer go.
func TestRelayHostsOwnTheirIDs(t *testing.T) {
	sess, local := relayFor(t, Options{Upstream: answerServer(t)})
	if err := sess.SetFaults([]proxy.Fault{{Match: proxy.Filter{Method: "tools/call", Dir: "server"}, Action: proxy.FaultDrop}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	dial := func() *websocket.Conn {
		c, _, err := websocket.Dial(ctx, local, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.CloseNow() })
		return c
	}
	first, second := dial(), dial()
	if err := first.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`)); err != nil {
		t.Fatal(err)
	}
	flowtest.Eventually(t, "the tools/call captured", func() bool {
		for _, f := range sess.Store().Last(sess.Store().Len()) {
			if f.Chan.Kind == capture.Control && f.Msg != nil && f.Msg.Method == "tools/call" {
				return true
			}
		}
		return false
	})
	if err := second.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	if _, b, err := second.Read(ctx); err != nil || !strings.Contains(string(b), `"result"`) {
		t.Fatalf("the second host's answer: %q %v", b, err)
	}
	flowtest.Eventually(t, "the tools/call answer dropped by the fault", func() bool {
		for _, f := range sess.Store().Last(sess.Store().Len()) {
			if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatFault && m.Tool == "echo" && m.ID == "1" {
				return true
			}
		}
		return false
	})
}
