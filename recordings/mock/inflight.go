package mock

import (
	"container/list"
	"strings"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// inFlight is the requests in flight on one recorded connection, in the
// order they were sent: adding and removing one costs the same however
// many are in flight.
type inFlight struct {
	order *list.List // of *exchange, oldest first
	at    map[*exchange]*list.Element
}

// newInFlight returns an empty set.
func newInFlight() *inFlight {
	return &inFlight{order: list.New(), at: map[*exchange]*list.Element{}}
}

// add puts ex last.
func (f *inFlight) add(ex *exchange) { f.at[ex] = f.order.PushBack(ex) }

// remove takes ex out, when it is in.
func (f *inFlight) remove(ex *exchange) {
	if e := f.at[ex]; e != nil {
		f.order.Remove(e)
		delete(f.at, ex)
	}
}

// latest is the request sent last, or nil.
func (f *inFlight) latest() *exchange {
	if e := f.order.Back(); e != nil {
		return e.Value.(*exchange)
	}
	return nil
}

// maxAskScan bounds how many requests in flight oldestAsking looks at.
const maxAskScan = 1024

// oldestAsking is the oldest request in flight that can bring a request
// of the server (a tool call, a prompt…; not a ping or a listing), else
// the latest, else nil.
func (f *inFlight) oldestAsking() *exchange {
	n := 0
	for e := f.order.Front(); e != nil && n < maxAskScan; e, n = e.Next(), n+1 {
		if ex := e.Value.(*exchange); canAsk(ex.method) {
			return ex
		}
	}
	return f.latest()
}

// canAsk reports whether a request of method may bring requests of the
// server in its span: not a ping, a listing, the handshake or a
// subscription change.
func canAsk(method string) bool {
	switch method {
	case mcp.MethodPing, mcp.MethodInitialize, mcp.MethodDiscover:
		return false
	}
	return !strings.HasSuffix(method, "/list") && !strings.HasPrefix(method, "resources/subscribe") && !strings.HasPrefix(method, "resources/unsubscribe")
}
