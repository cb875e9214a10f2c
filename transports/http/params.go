package mcphttp

import (
	"net/http"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// headerParamPrefix starts the header a tool parameter is mirrored into.
const headerParamPrefix = "Mcp-Param-"

// setParamHeaders sets the Mcp-Param headers the engine handed a
// 2026-07-28 tools/call (client.Traits.MirrorsParams), each value encoded
// as the revision encodes mirrored values.
func setParamHeaders(h http.Header, params []client.ParamHeader) {
	for _, p := range params {
		h.Set(headerParamPrefix+p.Name, mcp.EncodeHeaderValue(p.Value))
	}
}
