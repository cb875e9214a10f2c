package client

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// WithMeta puts its members in the request's _meta, over the members the
// params carry and before those of the era, in both eras.
func TestWithMetaReachesEachRequest(t *testing.T) {
	for _, modern := range []bool{false, true} {
		s, ft := connect(t, serve(modern, echoN), Options{})
		_, err := s.Call(testCtx(t), "tools/call", json.RawMessage(`{"name":"x","_meta":{"keep":1,"over":1}}`),
			WithMeta(jsonrpc.Member{Key: "over", Value: json.RawMessage(`"mine"`)},
				jsonrpc.Member{Key: mcp.MetaProtocolVersion, Value: json.RawMessage(`"1999-01-01"`)}))
		if err != nil {
			t.Fatal(err)
		}
		var sent *jsonrpc.Message
		for _, m := range ft.srv.sentMessages() {
			if m.Method == "tools/call" {
				sent = m
			}
		}
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		if sent == nil || json.Unmarshal(sent.Params, &p) != nil {
			t.Fatalf("modern %v: no tools/call sent", modern)
		}
		if string(p.Meta["keep"]) != "1" || string(p.Meta["over"]) != `"mine"` || string(p.Meta[mcp.MetaProtocolVersion]) != `"1999-01-01"` {
			t.Errorf("modern %v: _meta %v", modern, p.Meta)
		}
		if modern && p.Meta[mcp.MetaClientInfo] == nil {
			t.Errorf("the era's members are gone: %v", p.Meta)
		}
	}
}

// WithNotificationsFirst returns the result only after the subscribers
// saw every notification sent before it.
func TestWithNotificationsFirst(t *testing.T) {
	const lines = 30
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Kind() != jsonrpc.KindRequest {
			return
		}
		for range lines {
			srv.notify(mcp.MethodNotifyMessage, mcp.LoggingMessageParams{Level: "info", Data: json.RawMessage(`"x"`)})
		}
		srv.result(*m.ID, map[string]bool{"done": true})
	}), Options{})
	var mu sync.Mutex
	seen := 0
	s.Subscribe(func(m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyMessage {
			time.Sleep(time.Millisecond) // a slow consumer: the response overtakes the queue
			mu.Lock()
			seen++
			mu.Unlock()
		}
	})
	if _, err := s.Call(testCtx(t), "burst", nil, WithNotificationsFirst()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen != lines {
		t.Fatalf("Call returned after %d of %d notifications", seen, lines)
	}
}
