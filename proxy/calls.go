package proxy

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// maxCalls bounds the requests the proxy remembers in flight: past it,
// the oldest unanswered one is forgotten (its answer, if it ever comes,
// is matched by nothing), so requests never answered cannot grow memory.
const maxCalls = 1 << 16

// about is what a message is about: its method and tool, or those of the
// request it answers.
type about struct {
	method, tool string
	// params are the params of a small request that may name a tool
	// (toolParams), kept so that the tool is read only when something
	// asks for it (resolve): most messages match no rule and make no mark.
	params   []byte
	id       string // the id's key, "" for a notification
	response bool
	known    bool // a response: the request it answers is known
	injected bool // a viewer injected the request (or the one answered)
}

// maxLazyParams is the most bytes of params a request in flight keeps to
// read its tool from later; a request with more has its tool read at
// once, so that what calls holds stays small.
const maxLazyParams = 512

// resolve reads the tool of the message (or of the request it answers)
// from its params, once: the filters, fault rules and marks that need
// the tool call it first.
func (a *about) resolve() {
	if a.params != nil {
		a.tool = toolIn(a.method, a.params)
		a.params = nil
	}
}

// request says the message is a request (not a notification, an answer or
// garbage).
func (a about) request() bool { return a.id != "" && !a.response }

// calls remembers the requests in flight each way, so that an answer is
// matched by the method and tool of its request. Ids are unique within a
// host's session only (Hop.Session: hosts all start at 0 or 1), so a
// request is known by its direction, its session and its id; the ids of
// injected requests (those starting with own) are unique to the proxy's
// session, and known by direction and id alone.
type calls struct {
	byKey map[callKey]call
	own   string    // the id key prefix of injected requests
	order []callRef // keys oldest first; refs of answered calls go stale
	n     uint64    // numbers the calls
	max   int       // maxCalls, or a test's bound
}

type call struct {
	about
	n uint64
}

type callRef struct {
	key callKey
	n   uint64
}

// callKey knows a request in flight: its direction, the host's session
// and its id's key.
type callKey struct {
	dir     capture.Dir
	session string
	id      string
}

func newCalls(own string) calls { return calls{byKey: map[callKey]call{}, own: own, max: maxCalls} }

// key is the key of the request with the id key going dir in session.
func (c *calls) key(dir capture.Dir, session, id string) callKey {
	if c.own != "" && strings.HasPrefix(id, c.own) {
		session = ""
	}
	return callKey{dir: dir, session: session, id: id}
}

// see records m going dir in the host's session and says what it is
// about. The caller holds the session's lock.
func (c *calls) see(dir capture.Dir, session string, m *jsonrpc.Message) about {
	if m == nil {
		return about{}
	}
	switch m.Kind() {
	case jsonrpc.KindRequest:
		a := about{method: m.Method, id: m.ID.Key()}
		a.toolLater(m.Params)
		c.remember(c.key(dir, session, a.id), a)
		return a
	case jsonrpc.KindNotification:
		a := about{method: m.Method}
		a.toolLater(m.Params)
		return a
	}
	if m.ID == nil {
		return about{response: true}
	}
	// An answer going dir answers a request that went the other way.
	id := m.ID.Key()
	k := c.key(opposite(dir), session, id)
	e, ok := c.byKey[k]
	if ok {
		delete(c.byKey, k)
	}
	a := e.about
	a.id, a.response, a.known = id, true, ok
	return a
}

// injected notes that the request with the id key going dir was injected.
func (c *calls) injected(dir capture.Dir, id string) {
	k := c.key(dir, "", id)
	if e, ok := c.byKey[k]; ok {
		e.injected = true
		c.byKey[k] = e
	}
}

// forget forgets an injected request that never went.
func (c *calls) forget(dir capture.Dir, id string) { delete(c.byKey, c.key(dir, "", id)) }

// remember keeps a request in flight, forgetting the oldest past max.
func (c *calls) remember(k callKey, a about) {
	c.n++
	c.byKey[k] = call{about: a, n: c.n}
	c.order = append(c.order, callRef{key: k, n: c.n})
	for len(c.byKey) > c.max && len(c.order) > 0 {
		r := c.order[0]
		c.order = c.order[1:]
		if e, ok := c.byKey[r.key]; ok && e.n == r.n {
			delete(c.byKey, r.key)
		}
	}
	if len(c.order) > 2*len(c.byKey)+64 {
		// Mostly answered calls: keep the refs still in flight.
		live := make([]callRef, 0, len(c.byKey))
		for _, r := range c.order {
			if e, ok := c.byKey[r.key]; ok && e.n == r.n {
				live = append(live, r)
			}
		}
		c.order = live
	}
}

// inFlight says whether a request with the id key went dir and is not
// answered yet: an injected one, or one of the host's session "".
func (c *calls) inFlight(dir capture.Dir, id string) bool {
	_, ok := c.byKey[c.key(dir, "", id)]
	return ok
}

// toolLater notes the params of a message whose method names a tool
// (toolParams) for resolve: kept when small (a copy, as the message's
// bytes may be a relay's buffer), read at once otherwise.
func (a *about) toolLater(params []byte) {
	if !toolParams(a.method) || len(params) == 0 {
		return
	}
	if len(params) > maxLazyParams {
		a.tool = toolIn(a.method, params)
		return
	}
	a.params = bytes.Clone(params)
}

// toolParams says whether a method's params name a tool: tools/call (or
// the prompt of prompts/get, the resource of resources/read).
func toolParams(method string) bool {
	switch method {
	case "tools/call", "prompts/get", "resources/read":
		return true
	}
	return false
}

// toolIn is the tool that params of method name, or "".
func toolIn(method string, params []byte) string {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	switch method {
	case "tools/call", "prompts/get":
		_ = json.Unmarshal(params, &p)
		return p.Name
	case "resources/read":
		_ = json.Unmarshal(params, &p)
		return p.URI
	}
	return ""
}

// toolOf is the tool a tools/call names (or the prompt of prompts/get, the
// resource of resources/read), or "".
func toolOf(m *jsonrpc.Message) string { return toolIn(m.Method, m.Params) }
