package webtransport

import (
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// LinkState reports the MCP-Flow dialect, the state machine's state and,
// once the initialize result settled it, the body encoding ("json" when the
// result declared none).
func (t *Transport) LinkState() client.LinkState {
	ls := client.LinkState{Dialect: mcp.DialectMCPFlow, State: t.State().String()}
	if n, ok := t.Negotiated(); ok {
		ls.Encoding = n.Encoding
		if ls.Encoding == "" {
			ls.Encoding = "json"
		}
	}
	return ls
}
