package lint

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// checkParamHeaders reports, on a 2026-07-28 session over Streamable
// HTTP, tools whose x-mcp-header annotations break that revision's rules:
// a conforming client leaves such a tool out of its list and never calls
// it. The rules are the ones mcpscope's own client applies.
func checkParamHeaders(o *offer, r *report) {
	if !o.modern() || o.transport != "http" {
		return
	}
	for _, e := range o.entries[kindTool] {
		if _, ok := e.obj["inputSchema"].(map[string]any); !ok {
			continue
		}
		var tool struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(e.raw, &tool) != nil {
			continue
		}
		if err := client.ParamHeadersError(tool.InputSchema); err != nil {
			r.add("x-mcp-header-invalid", e, member(e.path, "inputSchema"), "conforming clients drop the tool: "+termtext.OneLine(err.Error()), "")
		}
	}
}
