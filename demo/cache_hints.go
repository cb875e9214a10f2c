package demo

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// CacheHinter is an Outbound that says whether its client speaks
// 2026-07-28: then list and read results carry cache hints (ttlMs,
// cacheScope).
type CacheHinter interface {
	CacheHints() bool
}

// cacheHints are the demo's cache hints, by method: lists stay fresh a
// minute for anyone, a read ten seconds for this client only.
var cacheHints = map[string]struct {
	ttlMs int64
	scope string
}{
	mcp.MethodToolsList:             {60000, mcp.CacheScopePublic},
	mcp.MethodPromptsList:           {60000, mcp.CacheScopePublic},
	mcp.MethodResourcesList:         {60000, mcp.CacheScopePublic},
	mcp.MethodResourceTemplatesList: {60000, mcp.CacheScopePublic},
	mcp.MethodResourcesRead:         {10000, mcp.CacheScopePrivate},
}

// DiscoverTTLMs is how long the demo's server/discover result stays fresh.
const DiscoverTTLMs = 300000

// cacheHinted adds the method's cache hint to a result when the client
// speaks 2026-07-28; any other result is returned as it is.
func (c *Conn) cacheHinted(method string, result any) any {
	h, ok := cacheHints[method]
	if hinter, modern := c.out.(CacheHinter); !ok || result == nil || !modern || !hinter.CacheHints() {
		return result
	}
	b, err := json.Marshal(result)
	if err != nil || !bytes.HasSuffix(b, []byte("}")) {
		return result
	}
	tail := `"ttlMs":` + strconv.FormatInt(h.ttlMs, 10) + `,"cacheScope":"` + h.scope + `"}`
	if !bytes.Equal(b, []byte("{}")) {
		tail = "," + tail
	}
	return json.RawMessage(append(b[:len(b)-1], tail...))
}
