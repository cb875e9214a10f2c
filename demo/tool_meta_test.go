package demo

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// tools/list marks the wizards interactive in their _meta and says nothing
// of the plain tools.
func TestToolsListMarksWizards(t *testing.T) {
	s := newTestServer(t)
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, mcp.MethodToolsList, nil))
	var res mcp.ListToolsResult
	if m := r.response(t, 1); m.Error != nil || json.Unmarshal(m.Result, &res) != nil {
		t.Fatalf("tools/list: %+v", m)
	}
	got := map[string]bool{}
	for _, tool := range res.Tools {
		interactive, declared := mcp.ToolInteractive(tool.Meta)
		got[tool.Name] = interactive
		if declared != interactive {
			t.Errorf("%s declares %v", tool.Name, interactive)
		}
	}
	for name, want := range map[string]bool{"book_trip": true, "book_trip_stateless": true, "register_user": true, "echo": false, "analyze": false} {
		if got[name] != want {
			t.Errorf("%s interactive %v, want %v", name, got[name], want)
		}
	}
}
