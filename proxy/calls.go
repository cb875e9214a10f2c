package proxy

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// maxCalls bounds the requests the proxy remembers in flight: past it, a
// new request is carried but its answer is matched by nothing.
const maxCalls = 1 << 16

// about is what a message is about: its method and tool, or those of the
// request it answers.
type about struct {
	method, tool string
	id           string // the id's key, "" for a notification
	response     bool
}

// calls remembers the requests in flight each way, so that an answer is
// matched by the method and tool of its request.
type calls struct {
	byKey map[string]about // key: direction of the request + id key
}

func newCalls() calls { return calls{byKey: map[string]about{}} }

func callKey(dir capture.Dir, id string) string { return dir.String() + " " + id }

// see records m going dir and says what it is about. The caller holds the
// session's lock.
func (c *calls) see(dir capture.Dir, m *jsonrpc.Message) about {
	if m == nil {
		return about{}
	}
	switch m.Kind() {
	case jsonrpc.KindRequest:
		a := about{method: m.Method, tool: toolOf(m), id: m.ID.Key()}
		if len(c.byKey) < maxCalls {
			c.byKey[callKey(dir, a.id)] = a
		}
		return a
	case jsonrpc.KindNotification:
		return about{method: m.Method, tool: toolOf(m)}
	}
	if m.ID == nil {
		return about{response: true}
	}
	// An answer going dir answers a request that went the other way.
	other := capture.In
	if dir == capture.In {
		other = capture.Out
	}
	k := callKey(other, m.ID.Key())
	a, ok := c.byKey[k]
	if ok {
		delete(c.byKey, k)
	}
	a.id, a.response = m.ID.Key(), true
	return a
}

// inFlight says whether a request with the id key went dir and is not
// answered yet.
func (c *calls) inFlight(dir capture.Dir, id string) bool {
	_, ok := c.byKey[callKey(dir, id)]
	return ok
}

// toolOf is the tool a tools/call names (or the prompt of prompts/get, the
// resource of resources/read), or "".
func toolOf(m *jsonrpc.Message) string {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	switch m.Method {
	case "tools/call", "prompts/get":
		_ = json.Unmarshal(m.Params, &p)
		return p.Name
	case "resources/read":
		_ = json.Unmarshal(m.Params, &p)
		return p.URI
	}
	return ""
}
