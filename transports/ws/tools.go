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
)

// toolTable tracks the tool calls of seed 004's dialect: the last id sent
// (ids must grow) and the ids awaiting their answer.
type toolTable struct {
	mu      sync.Mutex
	last    int64
	pending map[int64]bool
}

// toolFrame is seed 004's request frame over WebSocket.
type toolFrame struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// sendTool sends a tools/call as a tool frame whose id is the request's
// own (the engine's ids are increasing integers), so the capture, the
// traffic pane and the wire agree. Nothing else has a frame in this
// dialect: another request is refused, a notification is noted as not
// sent.
func (t *Transport) sendTool(ctx context.Context, m *proto.Message) error {
	switch m.Kind() {
	case proto.KindRequest:
	case proto.KindNotification:
		t.reportNote(outgoing, fmt.Sprintf("not sent: seed 004's WebSocket dialect has no notifications (%s)", m.Method))
		return nil
	default:
		return fmt.Errorf("seed 004's WebSocket dialect has no answers to server requests: %s not sent", describe(m))
	}
	if m.Method != proto.MethodToolsCall {
		return fmt.Errorf("%s cannot be sent: seed 004's WebSocket dialect (tools-ws) carries tools/call only", describe(m))
	}
	n, ok := m.ID.Int()
	if !ok {
		return fmt.Errorf("%s: tools-ws needs numeric ids", describe(m))
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Name == "" {
		return fmt.Errorf("%s: the params name no tool: %s", describe(m), m.Params)
	}
	raw, err := json.Marshal(toolFrame{ID: n, Name: p.Name, Arguments: p.Arguments})
	if err != nil {
		return err
	}
	if err := t.tools.add(n); err != nil {
		return fmt.Errorf("%s: %w", describe(m), err)
	}
	t.reportSent(raw, m)
	if err := t.write(ctx, websocket.MessageText, raw, describe(m)); err != nil {
		t.tools.answered(n)
		return err
	}
	return nil
}

// add records id as sent; ids must grow.
func (tt *toolTable) add(id int64) error {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if id <= tt.last {
		return fmt.Errorf("tool call ids must grow: %d after %d", id, tt.last)
	}
	if tt.pending == nil {
		tt.pending = make(map[int64]bool)
	}
	tt.last, tt.pending[id] = id, true
	return nil
}

// answered removes id and reports whether it was awaiting its answer.
func (tt *toolTable) answered(id int64) bool {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	ok := tt.pending[id]
	delete(tt.pending, id)
	return ok
}

// readTool handles one text message of seed 004's dialect: an answer
// (a JSON-RPC envelope echoing the id of a call in flight) is delivered
// and removed from the pending calls; anything else (a ping, a
// notification, an unknown frame) is shown and ignored.
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
func (t *Transport) toolAnswer(data []byte, f *capture.Frame) *proto.Message {
	msgs, batch, err := proto.DecodeJSON(data)
	if err != nil || batch {
		f.Err = errors.New("an unsolicited frame (not an answer to a tool call): shown and ignored")
		return nil
	}
	m := msgs[0]
	f.Msg = m
	n, isInt := idOf(m)
	answer := m.Kind() == proto.KindResult || m.Kind() == proto.KindError || m.Violation != nil
	if !answer || !isInt || !t.tools.answered(n) {
		f.Err = errors.New("an unsolicited frame (no tool call in flight has its id): shown and ignored")
		return nil
	}
	return m
}

// idOf returns the integer id of m, if it has one.
func idOf(m *proto.Message) (int64, bool) {
	if m.ID == nil {
		return 0, false
	}
	return m.ID.Int()
}
