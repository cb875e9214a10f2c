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
		schema, ok := e.obj["inputSchema"].(map[string]any)
		if !ok {
			continue
		}
		raw, err := json.Marshal(schema)
		if err != nil {
			continue
		}
		if err := client.ParamHeadersError(raw); err != nil {
			r.add("x-mcp-header-invalid", e, member(e.path, "inputSchema"), "conforming clients drop the tool: "+termtext.OneLine(err.Error()), "")
		}
	}
}
