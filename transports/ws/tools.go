package ws

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// toolTable tracks the tool calls of seed 004's dialect: the wire ids
// grow with each frame sent (the seed's monotonic counter, kept in the
// order the frames go out however many calls run at once), each mapped to
// the id of the engine's request it carries.
type toolTable struct {
	send    sync.Mutex // held from taking a wire id to writing its frame
	mu      sync.Mutex
	last    int64
	pending map[int64]jsonrpc.ID // wire id → the request's id
}

// toolFrame is seed 004's request frame over WebSocket.
type toolFrame struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// sendTool sends a tools/call as a tool frame under the next wire id.
// Nothing else has a frame in this dialect: another request is refused, a
// notification is noted as not sent.
func (t *Transport) sendTool(ctx context.Context, m *jsonrpc.Message) error {
	switch m.Kind() {
	case jsonrpc.KindRequest:
	case jsonrpc.KindNotification:
		t.noteUnsent(m.Method)
		return nil
	default:
		return fmt.Errorf("tool frames over WebSocket carry no answers to server requests: %s not sent", m.Describe())
	}
	if m.Method != mcp.MethodToolsCall {
		return fmt.Errorf("%s cannot be sent: tool frames over WebSocket (tools-ws) carry tools/call only", m.Describe())
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Name == "" {
		return fmt.Errorf("%s: the params name no tool: %s", m.Describe(), m.Params)
	}
	t.tools.send.Lock()
	defer t.tools.send.Unlock()
	n := t.tools.add(*m.ID)
	raw, err := json.Marshal(toolFrame{ID: n, Name: p.Name, Arguments: p.Arguments})
	if err != nil {
		t.tools.answered(n)
		return err
	}
	t.reportSent(raw, m)
	if err := t.write(ctx, websocket.MessageText, raw, m.Describe()); err != nil {
		t.tools.answered(n)
		return err
	}
	return nil
}

// noteUnsent says in the capture that a notification of method was not
// sent: the dialect has no frame for it.
func (t *Transport) noteUnsent(method string) {
	t.reportNote(outgoing, fmt.Sprintf("not sent: tool frames over WebSocket carry no notifications (%s)", method))
}

// AbortToolCall forgets the tool call that carries the request with id,
// which the engine gave up on (client.Traits.Abort): its answer, if it
// comes, is unsolicited. The dialect has no way to tell the server, so
// the capture says that no notifications/cancelled went out. It always
// reports true: nothing more can be done.
func (t *Transport) AbortToolCall(id jsonrpc.ID, _ string) bool {
	t.tools.forget(id)
	t.noteUnsent(mcp.MethodNotifyCancelled)
	return true
}

// add takes the next wire id for the request id.
func (tt *toolTable) add(id jsonrpc.ID) int64 {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if tt.pending == nil {
		tt.pending = make(map[int64]jsonrpc.ID)
	}
	tt.last++
	tt.pending[tt.last] = id
	return tt.last
}

// forget removes the call that carries the request id.
func (tt *toolTable) forget(id jsonrpc.ID) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	for n, req := range tt.pending {
		if req.Key() == id.Key() {
			delete(tt.pending, n)
			return
		}
	}
}

// answered removes wire id n and returns the request's id, if n was
// awaiting its answer.
func (tt *toolTable) answered(n int64) (jsonrpc.ID, bool) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	id, ok := tt.pending[n]
	delete(tt.pending, n)
	return id, ok
}

// readTool handles one text message of seed 004's dialect: an answer
// (a JSON-RPC envelope echoing the id of a call in flight) is delivered
// and removed from the pending calls; anything else (a ping, a
// notification, an unknown frame) is shown and ignored. The seed lets a
// server send pings and notifications unsolicited: those are shown as
// what they are, only a frame that is neither carries a reason.
func (t *Transport) readTool(data []byte) {
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Control}, Raw: data, Enc: proto.EncJSON}
	m := t.toolAnswer(data, f)
	t.report(incoming, f)
	if m != nil {
		t.deliver(m)
	}
}

// toolAnswer decodes data into f and returns the answer it carries, or
// nil (f then says why it is ignored).
func (t *Transport) toolAnswer(data []byte, f *capture.Frame) *jsonrpc.Message {
	if _, ok := gateway.ToolsFrameType(data); ok {
		return nil // {"type":"ping"} and its kind: the dialect's own, shown as such
	}
	msgs, batch, err := jsonrpc.DecodeJSON(data)
	if err != nil || batch {
		f.Err = errors.New("an unsolicited frame (not an answer to a tool call): shown and ignored")
		return nil
	}
	m := msgs[0]
	f.Msg = m
	if m.Kind() == jsonrpc.KindNotification && m.Violation == nil {
		return nil // a notification the seed allows: shown, not delivered
	}
	n, isInt := idOf(m)
	answer := m.Kind() == jsonrpc.KindResult || m.Kind() == jsonrpc.KindError || m.Violation != nil
	if !answer || !isInt {
		f.Err = errors.New("an unsolicited frame (not an answer to a tool call): shown and ignored")
		return nil
	}
	id, ok := t.tools.answered(n)
	if !ok {
		f.Err = errors.New("an unsolicited frame (no tool call in flight has its id): shown and ignored")
		return nil
	}
	// The engine and the traffic know the request by its own id.
	routed := *m
	routed.ID = &id
	f.Msg = &routed
	return &routed
}

// idOf returns the integer id of m, if it has one.
func idOf(m *jsonrpc.Message) (int64, bool) {
	if m.ID == nil {
		return 0, false
	}
	return m.ID.Int()
}
