package client

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// answering is the handler of the MRTR and server-request tests.
func answering(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case mcp.MethodElicitationCreate:
		var p mcp.ElicitRequestParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: err.Error()}
		}
		return mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: map[string]any{"name": "Ada", "asked": p.Message}}, nil
	case mcp.MethodSamplingCreateMessage:
		return mcp.CreateMessageResult{Role: "assistant", Model: "manual", Content: mustJSON(mcp.ContentBlock{Type: "text", Text: "Paris"})}, nil
	}
	return nil, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "not here"}
}

type round struct {
	id     jsonrpc.ID
	params map[string]json.RawMessage
}

func TestMRTRLoop(t *testing.T) {
	rounds := make(chan round, 8)
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		var p map[string]json.RawMessage
		_ = json.Unmarshal(m.Params, &p)
		rounds <- round{*m.ID, p}
		switch {
		case p["inputResponses"] == nil:
			srv.rawResult(*m.ID, `{"resultType":"input_required","requestState":"s1","inputRequests":{
				"who":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object"}}},
				"dirs":{"method":"roots/list"}}}`)
		case string(p["requestState"]) == `"s1"`:
			srv.rawResult(*m.ID, `{"resultType":"input_required","inputRequests":{
				"llm":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}`)
		default:
			srv.rawResult(*m.ID, `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`)
		}
	}), Options{Handler: handlerFunc(answering), Roots: []mcp.Root{{URI: "file:///srv", Name: "srv"}}})

	var reported []jsonrpc.ID
	raw, err := s.Call(testCtx(t), mcp.MethodToolsCall, mcp.CallToolParams{Name: "ask", Arguments: json.RawMessage(`{"x":1}`)},
		WithRounds(func(n int, id jsonrpc.ID) {
			if n != len(reported)+1 {
				t.Errorf("round %d reported after %d rounds", n, len(reported))
			}
			reported = append(reported, id)
		}))
	if err != nil {
		t.Fatal(err)
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil || res.NeedsInput() || res.Content[0].Text != "done" {
		t.Fatalf("final result %s", raw)
	}
	close(rounds)
	var got []round
	for r := range rounds {
		got = append(got, r)
	}
	if len(got) != 3 || len(reported) != 3 {
		t.Fatalf("%d rounds on the wire, %d reported, want 3", len(got), len(reported))
	}
	for i, r := range got {
		if r.id != reported[i] || (i > 0 && r.id == got[i-1].id) {
			t.Fatalf("round %d id %s (reported %s): each round needs a new id", i+1, r.id, reported[i])
		}
		if string(r.params["name"]) != `"ask"` || string(r.params["arguments"]) != `{"x":1}` || r.params["_meta"] == nil {
			t.Fatalf("round %d lost the original params: %v", i+1, r.params)
		}
	}
	var second map[string]json.RawMessage
	_ = json.Unmarshal(got[1].params["inputResponses"], &second)
	if string(second["who"]) != `{"action":"accept","content":{"asked":"Name?","name":"Ada"}}` ||
		string(second["dirs"]) != `{"roots":[{"uri":"file:///srv","name":"srv"}]}` {
		t.Fatalf("round 2 inputResponses %s", got[1].params["inputResponses"])
	}
	if _, has := got[2].params["requestState"]; has {
		t.Fatalf("round 3 echoed a requestState the server did not send: %v", got[2].params)
	}
	var third map[string]mcp.CreateMessageResult
	if err := json.Unmarshal(got[2].params["inputResponses"], &third); err != nil || third["llm"].Model != "manual" {
		t.Fatalf("round 3 inputResponses %s", got[2].params["inputResponses"])
	}
}

func TestMRTRRoundCap(t *testing.T) {
	sent := 0
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		sent++
		srv.rawResult(*m.ID, `{"resultType":"input_required","requestState":"again","inputRequests":{}}`)
	}), Options{})
	_, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]string{"name": "loop"})
	var pe *ProtocolError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a ProtocolError", err)
	}
	if sent != MaxInputRounds {
		t.Fatalf("sent %d rounds, want %d", sent, MaxInputRounds)
	}
}

func TestMRTRUnansweredInput(t *testing.T) {
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		srv.rawResult(*m.ID, `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"message":"?"}}}}`)
	}), Options{})
	_, err := s.Call(testCtx(t), mcp.MethodToolsCall, map[string]string{"name": "ask"})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != mcp.CodeMethodNotFound {
		t.Fatalf("err = %v, want the -32601 of the missing handler", err)
	}
}

func TestListAllFollowsCursor(t *testing.T) {
	var cursors []string
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		var p struct {
			Cursor string `json:"cursor"`
			Extra  int    `json:"extra"`
		}
		_ = json.Unmarshal(m.Params, &p)
		cursors = append(cursors, p.Cursor)
		if p.Extra != 7 {
			srv.fail(*m.ID, mcp.CodeInvalidParams, "extra param lost")
			return
		}
		switch p.Cursor {
		case "":
			srv.rawResult(*m.ID, `{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":"p2"}`)
		case "p2":
			srv.rawResult(*m.ID, `{"tools":[{"name":"c"}],"nextCursor":"p3"}`)
		case "p3":
			srv.rawResult(*m.ID, `{"tools":[{"name":"d"},{"name":"e"}]}`)
		}
	}), Options{})
	items, err := s.ListAll(testCtx(t), mcp.MethodToolsList, "tools", map[string]int{"extra": 7})
	if err != nil {
		t.Fatal(err)
	}
	var names string
	for _, it := range items {
		var tool mcp.Tool
		_ = json.Unmarshal(it, &tool)
		names += tool.Name
	}
	if names != "abcde" || len(cursors) != 3 || cursors[1] != "p2" || cursors[2] != "p3" {
		t.Fatalf("items %q over cursors %q", names, cursors)
	}
}

func TestListAllStopsACursorLoop(t *testing.T) {
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		srv.rawResult(*m.ID, `{"tools":[{"name":"a"}],"nextCursor":"same"}`)
	}), Options{})
	items, err := s.ListAll(testCtx(t), mcp.MethodToolsList, "tools", nil)
	var pe *ProtocolError
	if !errors.As(err, &pe) || len(items) != 2 {
		t.Fatalf("items %d err %v, want a ProtocolError after the cursor repeats", len(items), err)
	}
}
