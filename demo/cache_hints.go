package demo

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// CacheHinter is an Outbound that says whether its client speaks
// 2026-07-28: then every result carries a resultType, and list and read
// results carry cache hints (ttlMs, cacheScope).
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

// modernResult decorates a result for a client that speaks 2026-07-28:
// "resultType":"complete" unless it has a resultType already, and the
// method's cache hint. The members already there keep their order. Any
// other result is returned as it is.
func (c *Conn) modernResult(method string, result any) any {
	if hinter, modern := c.out.(CacheHinter); result == nil || !modern || !hinter.CacheHints() {
		return result
	}
	b, err := json.Marshal(result)
	if err != nil || !bytes.HasSuffix(b, []byte("}")) {
		return result
	}
	var has struct {
		ResultType json.RawMessage `json:"resultType"`
	}
	if json.Unmarshal(b, &has) != nil {
		return result
	}
	var tail []byte
	if has.ResultType == nil {
		tail = append(tail, `,"resultType":"`+mcp.ResultTypeComplete+`"`...)
	}
	if h, ok := cacheHints[method]; ok {
		tail = append(tail, `,"ttlMs":`+strconv.FormatInt(h.ttlMs, 10)+`,"cacheScope":"`+h.scope+`"`...)
	}
	if len(tail) == 0 {
		return result
	}
	if bytes.Equal(bytes.TrimSpace(b), []byte("{}")) {
		tail = tail[1:]
	}
	out := append(b[:len(b)-1:len(b)-1], tail...)
	return json.RawMessage(append(out, '}'))
}
