package client

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The session remembers, once each and in order, the tools a tools/call
// got a result for; a call answered with an error is not remembered.
func TestCalledTools(t *testing.T) {
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		if m.Kind() != jsonrpc.KindRequest {
			return
		}
		var p struct{ Name string }
		_ = json.Unmarshal(m.Params, &p)
		if p.Name == "missing" {
			srv.fail(*m.ID, mcp.CodeInvalidParams, "unknown tool")
			return
		}
		srv.result(*m.ID, map[string]any{"content": []any{}})
	}), Options{})
	ctx := testCtx(t)
	for _, name := range []string{"echo", "missing", "analyze", "echo"} {
		_, _ = s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": name})
	}
	_, _ = s.Call(ctx, mcp.MethodPromptsGet, map[string]any{"name": "not_a_tool"})
	if got := s.CalledTools(); !slices.Equal(got, []string{"echo", "analyze"}) {
		t.Errorf("called tools %v", got)
	}
}
