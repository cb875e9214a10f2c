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
	methods     []string               // the recorded methods, sorted
	unsolicited [][]byte               // server messages outside every request, after the handshake
	opts        jsondiff.Options
	// Warnings say what of the recording could not be read.
	Warnings []string
	// Proxy is the NAME of the proxied session the recording holds, or "".
	Proxy string
	// Requests counts the answered requests it can serve.
	Requests int
}

// exchange is one recorded request, what the server sent in its span and
// its answer.
type exchange struct {
	method string
	params json.RawMessage // as recorded, less the engine's own _meta members
	token  string          // the recorded progress token, as JSON, or ""
	conn   string          // the connection it was sent on
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
	l := &loader{pending: map[string][]*exchange{}, tokens: map[string]*exchange{}, open: map[string][]*exchange{}}
	d, err := recordings.Walk(rd, func(rec *recordings.Record) error {
		l.add(rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	r := l.recording()
	r.Proxy, r.Warnings = rd.Header().Proxy, d.Warnings("")
	if r.Requests == 0 {
		return nil, ErrNoRequests
	}
	return r, nil
}

// ErrNoRequests says a recording holds no request the server answered.
var ErrNoRequests = errors.New("the recording holds no request the server answered: there is nothing to serve")

// loader builds a Recording from a recording's records.
type loader struct {
	all         []*exchange
	pending     map[string][]*exchange // id → the requests in flight under it, oldest first
	tokens      map[string]*exchange   // progress token → request in flight
	open        map[string][]*exchange // connection → its requests in flight, oldest first
	unsolicited [][]byte
}

// add takes one record.
func (l *loader) add(rec *recordings.Record) {
	f := rec.Frame
	if rec.Kind != recordings.RecFrame || f == nil || f.Chan.Kind != capture.Control || f.Msg == nil || f.Msg.Violation != nil {
		return
	}
	m := f.Msg
	switch out := f.Dir == capture.Out; {
	case out && m.Kind() == jsonrpc.KindRequest:
		ex := &exchange{method: m.Method, params: normalParams(against.RequestParams(m.Params)), token: progressToken(m.Params), conn: f.Conn}
		l.all = append(l.all, ex)
		l.pending[m.ID.Key()] = append(l.pending[m.ID.Key()], ex)
		l.open[f.Conn] = append(l.open[f.Conn], ex)
		if ex.token != "" {
			l.tokens[ex.token] = ex
		}
	case !out && m.IsResponse():
		l.answer(f.Conn, m)
	case !out && (m.Kind() == jsonrpc.KindRequest || m.Kind() == jsonrpc.KindNotification):
		l.serverMessage(f.Conn, m)
	}
}

// answer takes the server's answer to a request of the client: the
// request in flight under its id on its connection, else on another (a
// legacy SSE stream answers the POSTs).
func (l *loader) answer(conn string, m *jsonrpc.Message) {
	key := m.ID.Key()
	waiting := l.pending[key]
	if len(waiting) == 0 {
		return
	}
	i := max(slices.IndexFunc(waiting, func(e *exchange) bool { return e.conn == conn }), 0)
	ex := waiting[i]
	if waiting = slices.Delete(waiting, i, i+1); len(waiting) == 0 {
		delete(l.pending, key)
	} else {
		l.pending[key] = waiting
	}
	if l.tokens[ex.token] == ex {
		delete(l.tokens, ex.token)
	}
	l.open[ex.conn] = slices.DeleteFunc(l.open[ex.conn], func(e *exchange) bool { return e == ex })
	ex.result, ex.err, ex.done = bytes.Clone(m.Result), m.Error, true
	if ex.err != nil {
		ex.err = &jsonrpc.Error{Code: ex.err.Code, Message: ex.err.Message, Data: bytes.Clone(ex.err.Data)}
	}
}

// serverMessage takes a notification or request of the server: it goes
// with the request whose progress token it names, else with the latest
// request in flight on its connection, else it is unsolicited.
func (l *loader) serverMessage(conn string, m *jsonrpc.Message) {
	raw := compact(m.Raw)
	if m.Method == mcp.MethodNotifyProgress {
		if ex := l.tokens[memberJSON(m.Params, "progressToken")]; ex != nil {
			ex.before = append(ex.before, raw)
			return
		}
	}
	if open := l.open[conn]; len(open) > 0 {
		ex := open[len(open)-1]
		ex.before = append(ex.before, raw)
		return
	}
	l.unsolicited = append(l.unsolicited, raw)
}

// recording indexes the answered requests.
func (l *loader) recording() *Recording {
	r := &Recording{byMethod: map[string][]*exchange{}, unsolicited: l.unsolicited}
	for _, ex := range l.all {
		if !ex.done {
			continue
		}
		if r.byMethod[ex.method] == nil {
			r.methods = append(r.methods, ex.method)
		}
		r.byMethod[ex.method] = append(r.byMethod[ex.method], ex)
		r.Requests++
	}
	slices.Sort(r.methods)
	return r
}

// normalParams turns absent or null params into {}.
func normalParams(p json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(p); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return json.RawMessage("{}")
	}
	return p
}

// progressToken returns the request's _meta.progressToken as compact
// JSON, or "".
func progressToken(params json.RawMessage) string {
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return memberJSON(p.Meta, "progressToken")
}

// memberJSON returns the member name of the object obj as compact JSON,
// or "" when obj is no object or lacks it.
func memberJSON(obj json.RawMessage, name string) string {
	var o map[string]json.RawMessage
	if json.Unmarshal(obj, &o) != nil || o[name] == nil {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, o[name]) != nil {
		return ""
	}
	return b.String()
}

// compact returns a copy of a recorded message on one line: a body read
// from an SSE event may span several.
func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return bytes.Clone(raw)
	}
	return b.Bytes()
}
