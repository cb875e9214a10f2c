package ws

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// scriptedAnswers answers the server's questions as a user would: the
// elicitation's form, the sampling's reply.
type scriptedAnswers struct{}

func (scriptedAnswers) HandleServerRequest(_ context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case mcp.MethodElicitationCreate:
		return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
	case mcp.MethodSamplingCreateMessage:
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"manual"}`), nil
	}
	return nil, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "not asked in this test: " + method}
}

// The server's own requests over ws, against a raw coder/websocket peer
// that plays the server: after the handshake it sends elicitation/create
// (a string id), sampling/createMessage, roots/list and ping, each as a
// text frame, and mcpscope answers each in a text frame of its own, byte
// for byte as JSON-RPC says: the same id, the answer as the result.
func TestServerRequestsAnsweredOverWS(t *testing.T) {
	asks := []string{
		`{"jsonrpc":"2.0","id":"e-1","method":"elicitation/create","params":{"mode":"form","message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Capital of France?"}}],"maxTokens":10}}`,
		`{"jsonrpc":"2.0","id":3,"method":"roots/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	}
	want := map[string]string{
		`"e-1"`: `{"jsonrpc":"2.0","id":"e-1","result":{"action":"accept","content":{"name":"Ada"}}}`,
		`2`:     `{"jsonrpc":"2.0","id":2,"result":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"manual"}}`,
		`3`:     `{"jsonrpc":"2.0","id":3,"result":{"roots":[{"uri":"file:///srv/project","name":"project"}]}}`,
		`4`:     `{"jsonrpc":"2.0","id":4,"result":{}}`,
	}
	var mu sync.Mutex
	var initialize string
	answers := map[string]string{}
	got := make(chan struct{})
	p := startPeer(t, []string{"mcp"}, func(ctx context.Context, c *websocket.Conn) {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		mu.Lock()
		initialize = string(data)
		mu.Unlock()
		_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"raw","version":"1"}}}`, frameID(data)))
		if _, _, err := c.Read(ctx); err != nil { // notifications/initialized
			return
		}
		for _, ask := range asks {
			_ = c.Write(ctx, websocket.MessageText, []byte(ask))
		}
		for range asks {
			typ, data, err := c.Read(ctx)
			if err != nil || typ != websocket.MessageText {
				return
			}
			mu.Lock()
			answers[string(frameID(data))] = string(data)
			mu.Unlock()
		}
		close(got)
		_, _, _ = c.Read(ctx)
	})
	tr, err := New(Config{URL: p.url})
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{ProtocolVersion: "2025-11-25", Handler: scriptedAnswers{},
		Roots: []mcp.Root{{URI: "file:///srv/project", Name: "project"}}})
	if err := s.Connect(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	select {
	case <-got:
	case <-ctxT(t).Done():
		t.Fatal("the server did not get its four answers")
	}
	mu.Lock()
	defer mu.Unlock()
	for id, frame := range want {
		if answers[id] != frame {
			t.Errorf("answer to id %s:\n got %s\nwant %s", id, answers[id], frame)
		}
	}
	for _, capability := range []string{`"elicitation":{`, `"sampling":{`, `"roots":{"listChanged":true}`} {
		if !strings.Contains(initialize, capability) {
			t.Errorf("initialize does not declare %s: %s", capability, initialize)
		}
	}
}
