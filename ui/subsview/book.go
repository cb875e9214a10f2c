package subsview

import (
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of a Book: the subscribed resources it tracks, the resources it
// tracks only because updates named them (a server may name any URI: these
// never take the room of a subscription; an update of another URI past
// them is counted in Untracked) and the requests it waits on for an answer
// (past it the oldest waits are forgotten).
const (
	MaxResources  = 1000
	MaxUpdateOnly = 100
	maxPending    = 4096
	maxURI        = 8192 // a longer URI is not tracked
	maxListenURI  = 64   // the URIs of one listen the book keeps
)

// Via names how a subscription was made.
const (
	ViaSubscribe = mcp.MethodResourcesSubscribe  // up to 2025-11-25
	ViaListen    = mcp.MethodSubscriptionsListen // 2026-07-28
)

// Resource is what the capture says of one subscribed resource.
type Resource struct {
	URI     string
	Updates int       // notifications/resources/updated naming it
	Last    time.Time // the last of them (zero before the first)
	LastSeq uint64
	Live    bool   // subscribed, by the capture: answered, acknowledged, not yet ended
	Via     string // ViaSubscribe or ViaListen; "" for updates seen with no subscription
	Conn    string
}

// pending is a request the book waits on for its answer.
type pending struct {
	method string
	uris   []string
}

// Book is what the UI's index learns for the view from the capture, one
// frame at a time, whether the view is open or not: the subscriptions
// made (resources/subscribe, subscriptions/listen with
// resourceSubscriptions) and ended, and the updates of each URI, so that
// a proxied, attached or replayed session shows them too. Its memory is
// bounded.
type Book struct {
	list      []*Resource
	byURI     map[string]*Resource
	pending   map[string]pending  // connection and request id → a subscribe, unsubscribe or listen
	listens   map[string][]string // connection and listen id → its URIs, while its stream lives
	Untracked int                 // updates of URIs past MaxUpdateOnly (or too long to keep)

	updateOnly int // the entries of URIs never subscribed (Via "")
}

// NewBook returns an empty book.
func NewBook() *Book {
	return &Book{byURI: map[string]*Resource{}, pending: map[string]pending{}, listens: map[string][]string{}}
}

// Note reads one captured frame, in capture order.
func (b *Book) Note(f *capture.Frame) {
	m := f.Msg
	if m == nil || f.Chan.Kind == capture.Datagram || f.Chan.Kind == capture.Stderr {
		return
	}
	switch {
	case f.Dir == capture.Out && m.Method != "" && m.ID != nil:
		b.request(f, m)
	case f.Dir == capture.Out && m.Method == mcp.MethodNotifyCancelled && len(b.listens) > 0:
		var p mcp.CancelledNotificationParams
		if json.Unmarshal(m.Params, &p) == nil {
			b.endListen(reqKey(f.Conn, p.RequestID))
		}
	case f.Dir == capture.In && m.IsResponse() && m.ID != nil:
		if len(b.pending) > 0 { // most answers: no lookup
			b.answer(f, m)
		}
	case f.Dir == capture.In && m.Method == mcp.MethodNotifySubscriptionsAck:
		b.acknowledged(f, m)
	case f.Dir == capture.In && m.Method == mcp.MethodNotifyResourceUpdated:
		var p mcp.ResourceUpdatedParams
		if json.Unmarshal(m.Params, &p) != nil || p.URI == "" {
			return
		}
		r := b.resource(p.URI, f.Conn, false)
		if r == nil {
			b.Untracked++
			return
		}
		r.Updates++
		r.Last, r.LastSeq = f.Time, f.Seq
	}
}

// request notes a subscribe, an unsubscribe or a listen naming resources.
func (b *Book) request(f *capture.Frame, m *jsonrpc.Message) {
	var uris []string
	switch m.Method {
	case mcp.MethodResourcesSubscribe, mcp.MethodResourcesUnsubscribe:
		var p mcp.ResourceUpdatedParams
		if json.Unmarshal(m.Params, &p) != nil || p.URI == "" || len(p.URI) > maxURI {
			return
		}
		uris = []string{p.URI}
	case mcp.MethodSubscriptionsListen:
		if uris = listenURIs(m.Params); len(uris) == 0 {
			return
		}
		if len(b.listens) >= maxPending {
			clear(b.listens)
		}
		b.listens[reqKey(f.Conn, *m.ID)] = uris
	default:
		return
	}
	if len(b.pending) >= maxPending {
		clear(b.pending)
	}
	b.pending[reqKey(f.Conn, *m.ID)] = pending{method: m.Method, uris: uris}
}

// answer notes the answer to a request the book waits on: a subscription
// made or ended, or a listen stream's end.
func (b *Book) answer(f *capture.Frame, m *jsonrpc.Message) {
	k := reqKey(f.Conn, *m.ID)
	p, ok := b.pending[k]
	if !ok {
		return
	}
	delete(b.pending, k)
	switch {
	case p.method == mcp.MethodSubscriptionsListen:
		b.endListen(k) // its stream's end, whatever the answer
	case m.Error != nil:
	case p.method == mcp.MethodResourcesSubscribe:
		if r := b.resource(p.uris[0], f.Conn, true); r != nil {
			r.Live, r.Via, r.Conn = true, ViaSubscribe, f.Conn
		}
	case p.method == mcp.MethodResourcesUnsubscribe:
		if r := b.byURI[p.uris[0]]; r != nil && r.Via == ViaSubscribe {
			r.Live = false
		}
	}
}

// acknowledged notes the resources a listen's acknowledgement accepts.
func (b *Book) acknowledged(f *capture.Frame, m *jsonrpc.Message) {
	id, ok := mcp.SubscriptionOf(m.Params)
	if !ok {
		return
	}
	if _, ok := b.listens[reqKey(f.Conn, id)]; !ok {
		return
	}
	accepted := listenURIs(m.Params) // the acknowledgement's notifications: what the server accepted
	b.listens[reqKey(f.Conn, id)] = accepted
	for _, uri := range accepted {
		if r := b.resource(uri, f.Conn, true); r != nil {
			r.Live, r.Via, r.Conn = true, ViaListen, f.Conn
		}
	}
}

// endListen notes the end of the listen stream under k.
func (b *Book) endListen(k string) {
	uris, ok := b.listens[k]
	if !ok {
		return
	}
	delete(b.listens, k)
	for _, uri := range uris {
		if r := b.byURI[uri]; r != nil && r.Via == ViaListen {
			r.Live = false
		}
	}
}

// resource is the entry of uri, made when new; subscribing says a
// subscription names it (the caller sets Via), else an update. nil past
// MaxResources subscribed entries, or MaxUpdateOnly entries of updates.
func (b *Book) resource(uri, conn string, subscribing bool) *Resource {
	if r, ok := b.byURI[uri]; ok {
		if subscribing && r.Via == "" {
			b.updateOnly-- // subscribed now
		}
		return r
	}
	if len(uri) > maxURI {
		return nil
	}
	if subscribing {
		if len(b.list)-b.updateOnly >= MaxResources {
			return nil
		}
	} else {
		if b.updateOnly >= MaxUpdateOnly {
			return nil
		}
		b.updateOnly++
	}
	r := &Resource{URI: uri, Conn: conn}
	b.list = append(b.list, r)
	b.byURI[uri] = r
	return r
}

// Resources are the resources the book tracks, in the order it met them.
// The caller must not change them.
func (b *Book) Resources() []*Resource { return b.list }

// Lookup is the entry of uri, or nil.
func (b *Book) Lookup(uri string) *Resource { return b.byURI[uri] }

// reqKey names a request on a connection.
func reqKey(conn string, id jsonrpc.ID) string { return conn + "\x00" + id.Key() }

// listenURIs reads notifications.resourceSubscriptions of listen params.
func listenURIs(params json.RawMessage) []string {
	var p struct {
		Notifications struct {
			ResourceSubscriptions []string `json:"resourceSubscriptions"`
		} `json:"notifications"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	uris := p.Notifications.ResourceSubscriptions
	return uris[:min(len(uris), maxListenURI)]
}
