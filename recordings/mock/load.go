package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/jsondiff"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/recordings/against"
)

// Recording is a recorded session read for serving. It is read-only once
// loaded: any number of Conns serve it at once.
type Recording struct {
	byMethod    map[string][]*exchange // answered requests by method, in recorded order
	byKey       map[string][]*exchange // answered requests by method and canonical params, in recorded order
	methods     []string               // the recorded methods, sorted
	unsolicited [][]byte               // server messages outside every request, after the handshake
	opts        jsondiff.Options
	streams     int // MCP-Flow execution (or gateway) streams recorded
	datagrams   int // MCP-Flow datagrams recorded
	// Warnings say what of the recording could not be read.
	Warnings []string
	// Proxy is the NAME of the proxied session the recording holds, or "".
	Proxy string
	// Requests counts the answered requests it can serve.
	Requests int
}

// FlowUnits counts the MCP-Flow execution streams and datagrams the
// recording holds: the mock replays neither.
func (r *Recording) FlowUnits() (streams, datagrams int) { return r.streams, r.datagrams }

// exchange is one recorded request, what the server sent in its span and
// its answer.
type exchange struct {
	method string
	params json.RawMessage // as recorded, less the engine's own _meta members
	doc    any             // the params document {"params": …}, decoded for matching
	token  string          // the recorded progress token, as JSON, or ""
	conn   string          // the connection it was sent on
	id     string          // the recorded id's key
	before [][]byte        // server messages between the request and its answer
	result json.RawMessage
	err    *jsonrpc.Error
	done   bool
}

// Load reads the recording at path. ignore are jsondiff patterns, over
// the document {"params": …}, of members a request's match ignores
// besides the volatile ones; one that does not parse is an error.
func Load(path string, ignore ...string) (*Recording, error) {
	opts, err := against.CompareOptions(ignore)
	if err != nil {
		return nil, fmt.Errorf("--ignore %w", err)
	}
	rd, err := recordings.Open(path)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	r, err := read(rd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.opts = opts
	return r, nil
}

// read indexes the records of rd.
func read(rd *recordings.Reader) (*Recording, error) {
	l := &loader{pending: map[string][]*exchange{}, tokens: map[string]*exchange{}, open: map[string]*inFlight{}, streams: map[streamOf]bool{}, asked: newServerRequests()}
	d, err := recordings.Walk(rd, func(rec *recordings.Record) error {
		l.add(rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	r := l.recording()
	r.Proxy, r.Warnings = rd.Header().Proxy, d.Warnings("")
	if l.unread > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d messages of the client could not be read as JSON-RPC and are not served (the first: %s)", l.unread, oneLine(l.firstUnread)))
	}
	if r.Requests == 0 {
		return nil, ErrNoRequests
	}
	return r, nil
}

// ErrNoRequests says a recording holds no request the server answered.
var ErrNoRequests = errors.New("the recording holds no request the server answered: there is nothing to serve")

// streamOf names one recorded stream.
type streamOf struct {
	conn     string
	req, tag uint32
}

// loader builds a Recording from a recording's records.
type loader struct {
	all         []*exchange
	pending     map[string][]*exchange // id → the requests in flight under it, oldest first
	tokens      map[string]*exchange   // progress token → request in flight
	open        map[string]*inFlight   // connection → its requests in flight
	unsolicited [][]byte
	streams     map[streamOf]bool
	datagrams   int
	asked       serverRequests
	unread      int // client messages that are no JSON-RPC
	firstUnread string
}

// add takes one record.
func (l *loader) add(rec *recordings.Record) {
	f := rec.Frame
	if rec.Kind != recordings.RecFrame || f == nil {
		return
	}
	switch f.Chan.Kind {
	case capture.Stream:
		if len(l.streams) < maxCounted {
			l.streams[streamOf{f.Conn, f.Chan.ReqID, f.Chan.Tag}] = true
		}
		return
	case capture.Datagram:
		l.datagrams++
		return
	case capture.Control:
	default:
		return
	}
	if f.Msg == nil || f.Msg.Violation != nil {
		if f.Dir == capture.Out {
			l.unreadable(f.Msg)
		}
		return
	}
	m := f.Msg
	switch out := f.Dir == capture.Out; {
	case out && m.Kind() == jsonrpc.KindRequest:
		l.request(f.Conn, m)
	case out && m.Method == mcp.MethodNotifyCancelled:
		l.cancelled(f.Conn, m)
	case out && m.IsResponse():
		l.asked.responded(f.Conn, m)
	case !out && m.IsResponse():
		l.answer(f.Conn, m)
	case !out && (m.Kind() == jsonrpc.KindRequest || m.Kind() == jsonrpc.KindNotification):
		l.serverMessage(f.Conn, m)
	}
}

// maxCounted bounds the distinct streams counted.
const maxCounted = 1 << 20

// unreadable notes a message of the client the recording holds but
// that is no JSON-RPC (nested too deep, say).
func (l *loader) unreadable(m *jsonrpc.Message) {
	l.unread++
	if l.firstUnread != "" {
		return
	}
	l.firstUnread = "not JSON-RPC"
	if m != nil && m.Violation != nil {
		l.firstUnread = m.Violation.Error()
	}
}

// request takes a request of the client.
func (l *loader) request(conn string, m *jsonrpc.Message) {
	params := normalParams(against.RequestParams(m.Params))
	ex := &exchange{method: m.Method, params: params, token: progressToken(m.Params), conn: conn, id: m.ID.Key()}
	ex.doc, _ = jsondiff.Decode(wrapParams(params))
	l.all = append(l.all, ex)
	l.pending[ex.id] = append(l.pending[ex.id], ex)
	l.inFlight(conn).add(ex)
	if ex.token != "" {
		l.tokens[ex.token] = ex
	}
}

// inFlight returns the requests in flight on conn.
func (l *loader) inFlight(conn string) *inFlight {
	f := l.open[conn]
	if f == nil {
		f = newInFlight()
		l.open[conn] = f
	}
	return f
}

// cancelled closes the request a notifications/cancelled of the client
// names: what the server sends after it is not that request's.
func (l *loader) cancelled(conn string, m *jsonrpc.Message) {
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return
	}
	for _, ex := range l.pending[p.RequestID.Key()] {
		if ex.conn == conn {
			l.close(ex)
			return
		}
	}
}

// answer takes the server's answer to a request of the client: the
// request in flight under its id on its connection, else on another (a
// legacy SSE stream answers the POSTs). An answer of id null names no
// request and is left out.
func (l *loader) answer(conn string, m *jsonrpc.Message) {
	if m.ID == nil {
		return
	}
	waiting := l.pending[m.ID.Key()]
	if len(waiting) == 0 {
		return
	}
	ex := waiting[max(slices.IndexFunc(waiting, func(e *exchange) bool { return e.conn == conn }), 0)]
	l.asked.answered(conn, ex)
	l.close(ex)
	ex.result, ex.err, ex.done = bytes.Clone(m.Result), m.Error, true
	if ex.err != nil {
		ex.err = &jsonrpc.Error{Code: ex.err.Code, Message: ex.err.Message, Data: bytes.Clone(ex.err.Data)}
	}
}

// close ends ex's flight: answered or cancelled.
func (l *loader) close(ex *exchange) {
	waiting := l.pending[ex.id]
	if i := slices.Index(waiting, ex); i >= 0 {
		waiting = slices.Delete(waiting, i, i+1)
	}
	if len(waiting) == 0 {
		delete(l.pending, ex.id)
	} else {
		l.pending[ex.id] = waiting
	}
	if l.tokens[ex.token] == ex {
		delete(l.tokens, ex.token)
	}
	if f := l.open[ex.conn]; f != nil {
		f.remove(ex)
	}
}

// serverMessage takes a notification or request of the server: a
// progress notification goes with the request whose token it names; a
// request of the server (sampling, elicitation, roots) with the oldest
// request in flight on its connection that can ask one; any other
// message with the latest in flight; outside every request, it is
// unsolicited.
func (l *loader) serverMessage(conn string, m *jsonrpc.Message) {
	raw := compact(m.Raw)
	if m.Method == mcp.MethodNotifyProgress {
		if ex := l.tokens[memberJSON(m.Params, "progressToken")]; ex != nil {
			ex.before = append(ex.before, raw)
			return
		}
	}
	if f := l.open[conn]; f != nil {
		ex := f.latest()
		if m.Kind() == jsonrpc.KindRequest {
			ex = f.oldestAsking()
		}
		if ex != nil {
			ex.before = append(ex.before, raw)
			if m.Kind() == jsonrpc.KindRequest {
				l.asked.placed(conn, m, ex, raw)
			}
			return
		}
	}
	l.unsolicited = append(l.unsolicited, raw)
}

// recording indexes the answered requests.
func (l *loader) recording() *Recording {
	r := &Recording{byMethod: map[string][]*exchange{}, byKey: map[string][]*exchange{}, unsolicited: l.unsolicited, streams: len(l.streams), datagrams: l.datagrams}
	for _, ex := range l.all {
		if !ex.done {
			continue
		}
		if r.byMethod[ex.method] == nil {
			r.methods = append(r.methods, ex.method)
		}
		r.byMethod[ex.method] = append(r.byMethod[ex.method], ex)
		if k, ok := matchKey(ex.method, ex.doc); ok {
			r.byKey[k] = append(r.byKey[k], ex)
		}
		r.Requests++
	}
	slices.Sort(r.methods)
	return r
}
