package demohttp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Events of seed 004's SSE dialect.
const (
	eventResult   = "result"
	eventComplete = "complete"
	eventError    = "error"
)

// maxLogFragments bounds the bytes of log lines one seed-004 call streams
// as fragments (complete repeats them); later lines are dropped.
const maxLogFragments = 1 << 20

// fragmentHuge pads the text of a result fragment.
var fragmentHuge = hugeWrap{prefix: `{"content":[{"type":"text","text":"`, suffix: `"}]}`}

// serveTools serves seed 004's tools-http at PathTools: one tools/call per
// POST, no handshake. Without text/event-stream in Accept the answer is one
// JSON body: 200 with the response, 4xx/5xx with the error envelope. With
// it, an SSE stream: the call's log lines as they come and then each
// content item of its result as "result" fragments, ": heartbeat" comments
// every Heartbeat while it works, and "complete" with the whole response
// (its content being every fragment's, in order) or "error" with the
// error envelope. Other HTTP methods get 405.
func (h *Handler) serveTools(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, "POST", "tool frames over HTTP take POST only")
		return
	}
	m, ok := h.readMessage(w, r)
	if !ok {
		return
	}
	switch {
	case m.Kind() != jsonrpc.KindRequest:
		writeError(w, http.StatusBadRequest, m.ID, mcp.CodeInvalidRequest, "tool frames over HTTP take one tools/call request per POST")
		return
	case m.Method != mcp.MethodToolsCall:
		writeError(w, http.StatusNotFound, m.ID, mcp.CodeMethodNotFound, "tool frames over HTTP carry tools/call only, not "+m.Method)
		return
	}
	f := formatJSON
	if acceptsExactly(r, mediaSSE) {
		f = formatSSE
	}
	st := newStream(streamConfig{name: eventResult, format: f, call: m.ID.Key(), huge: fragmentHuge, backlog: h.opts.Backlog})
	if f == formatSSE {
		st.startHeartbeats(false)
	}
	conn := h.core.NewConn(&toolsOutbound{h: h, id: *m.ID, st: st})
	defer conn.Close()
	gen, _ := st.attach(nil)
	conn.Handle(m)
	h.writeStream(r.Context(), w, st, gen, response{})
}

// seedStatus is the HTTP status of a seed-004 answer sent as one body.
func seedStatus(m *jsonrpc.Message) int {
	if m.Error == nil {
		return http.StatusOK
	}
	switch m.Error.Code {
	case mcp.CodeParseError, mcp.CodeInvalidRequest, mcp.CodeInvalidParams:
		return http.StatusBadRequest
	case mcp.CodeMethodNotFound:
		return http.StatusNotFound
	}
	return http.StatusInternalServerError
}

// toolsOutbound is the demo.Outbound of one seed-004 call.
type toolsOutbound struct {
	h  *Handler
	id jsonrpc.ID
	st *stream

	mu      sync.Mutex
	content []json.RawMessage // fragments sent so far, for complete
	logged  int               // bytes of log fragments
}

var _ demo.Saboteur = (*toolsOutbound)(nil)

// errNoAsking refuses the server→client requests seed 004 has no room for.
var errNoAsking = errors.New("tool frames over HTTP cannot ask the client anything")

// Send sends the call's answer as the dialect says; a log line becomes a
// fragment on an SSE stream; the rest has no place and is refused.
func (o *toolsOutbound) Send(m *jsonrpc.Message) error {
	switch {
	case m.IsResponse() && m.ID != nil && m.ID.Key() == o.id.Key():
		return o.answer(m)
	case m.Kind() == jsonrpc.KindRequest:
		return errNoAsking
	case m.Method == mcp.MethodNotifyMessage && o.st.isStream():
		return o.logFragment(m)
	}
	return errNoStream
}

// SendContext is Send: a seed-004 connection serves one call.
func (o *toolsOutbound) SendContext(_ context.Context, m *jsonrpc.Message) error { return o.Send(m) }

// Emitter returns the call's emitter; the stream ends if the call ends
// unanswered.
func (o *toolsOutbound) Emitter(ctx context.Context, info demo.CallInfo) demo.Emitter {
	context.AfterFunc(ctx, o.st.endUnanswered)
	return demo.NotificationEmitter{Send: o.Send}
}

// Modes are the misbehave modes of HTTP (demo.Saboteur).
func (o *toolsOutbound) Modes() []string { return demo.HTTPModes }

// Sabotage performs an HTTP misbehave mode on the call's stream.
func (o *toolsOutbound) Sabotage(ctx context.Context, mode string, id jsonrpc.ID, args json.RawMessage) (string, error) {
	return o.h.sabotage(ctx, sabotageTarget{st: o.st, r: o, id: id}, mode, args)
}

// logFragment sends a log line as a text fragment, within maxLogFragments.
func (o *toolsOutbound) logFragment(m *jsonrpc.Message) error {
	var p mcp.LoggingMessageParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return err
	}
	text := string(p.Data)
	var s string
	if json.Unmarshal(p.Data, &s) == nil {
		text = s
	}
	frag, err := json.Marshal(demo.Text(text))
	if err != nil {
		return err
	}
	o.mu.Lock()
	over := o.logged+len(frag) > maxLogFragments
	if !over {
		o.logged += len(frag)
	}
	o.mu.Unlock()
	if over {
		return nil
	}
	return o.fragment(frag)
}

// fragment sends one content item as a result fragment and keeps it for
// complete.
func (o *toolsOutbound) fragment(c json.RawMessage) error {
	data, err := json.Marshal(map[string][]json.RawMessage{"content": {c}})
	if err != nil {
		return err
	}
	if err := o.st.push(item{data: data}); err != nil {
		return err
	}
	o.mu.Lock()
	o.content = append(o.content, c)
	o.mu.Unlock()
	return nil
}

// answer sends the call's response: one body, or an error event, or the
// result's content items as fragments and then complete.
func (o *toolsOutbound) answer(m *jsonrpc.Message) error {
	data, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	switch {
	case !o.st.isStream():
		return o.st.push(item{data: data, final: true, status: seedStatus(m)})
	case m.Error != nil:
		return o.st.push(item{name: eventError, data: data, final: true})
	}
	var res map[string]json.RawMessage
	var items []json.RawMessage
	if err := json.Unmarshal(m.Result, &res); err != nil {
		return err
	}
	_ = json.Unmarshal(res["content"], &items)
	for _, c := range items {
		if err := o.fragment(c); err != nil {
			return err
		}
	}
	o.mu.Lock()
	all := append([]json.RawMessage{}, o.content...)
	o.mu.Unlock()
	if res["content"], err = json.Marshal(all); err != nil {
		return err
	}
	whole, err := jsonrpc.NewResult(o.id, res)
	if err != nil {
		return err
	}
	if data, err = whole.EncodeJSON(); err != nil {
		return err
	}
	return o.st.push(item{name: eventComplete, data: data, final: true})
}
