package client

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// The session remembers, once each and in order, the tools a tools/call
// got a result for; a call answered with an error is not remembered.
func TestCalledTools(t *testing.T) {
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *proto.Message) {
		if m.Kind() != proto.KindRequest {
			return
		}
		var p struct{ Name string }
		_ = json.Unmarshal(m.Params, &p)
		if p.Name == "missing" {
			srv.fail(*m.ID, proto.CodeInvalidParams, "unknown tool")
			return
		}
		srv.result(*m.ID, map[string]any{"content": []any{}})
	}), Options{})
	ctx := testCtx(t)
	for _, name := range []string{"echo", "missing", "analyze", "echo"} {
		_, _ = s.Call(ctx, proto.MethodToolsCall, map[string]any{"name": name})
	}
	_, _ = s.Call(ctx, proto.MethodPromptsGet, map[string]any{"name": "not_a_tool"})
	if got := s.CalledTools(); !slices.Equal(got, []string{"echo", "analyze"}) {
		t.Errorf("called tools %v", got)
	}
}
