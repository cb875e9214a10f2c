package serverinfo

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// deprecations say which features of the session are deprecated, one line
// each: the server's capabilities of features SEP-2577 deprecates in a
// 2026-07-28 session (they still work), and the legacy HTTP+SSE
// transport; nil when none is.
func deprecations(f Facts) []string {
	var out []string
	if mcp.DeprecatesFeatures(f.Version) {
		var caps map[string]json.RawMessage
		_ = json.Unmarshal(f.Capabilities, &caps)
		var used []string
		for _, c := range mcp.DeprecatedCapabilities {
			if _, ok := caps[c]; ok {
				used = append(used, c)
			}
		}
		if len(used) > 0 {
			out = append(out, "capabilities "+strings.Join(used, ", ")+": deprecated in "+termtext.Line(f.Version)+", still working", mcp.SEP2577)
		}
	}
	if f.Link.Transport == mcp.TransportHTTPSSE {
		out = append(out, mcp.SSEDeprecation)
	}
	return out
}
