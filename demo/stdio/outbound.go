package stdio

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// outbound writes messages as lines and serves as the Emitter of calls.
type outbound struct {
	mu      sync.Mutex
	w       io.Writer
	closed  bool
	dropped chan struct{}
	once    sync.Once
}

var _ demo.Saboteur = (*outbound)(nil)

// newOutbound writes to w.
func newOutbound(w io.Writer) *outbound { return &outbound{w: w, dropped: make(chan struct{})} }

// Send writes m as one line; lines never interleave.
func (o *outbound) Send(m *jsonrpc.Message) error {
	b, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	b = append(b, '\n')
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return fmt.Errorf("standard output is closed")
	}
	_, err = o.w.Write(b)
	return err
}

// sendError writes an error response.
func (o *outbound) sendError(id jsonrpc.ID, code int, msg string) {
	_ = o.Send(jsonrpc.NewErrorResponse(id, code, msg, nil))
}

// Emitter returns the emitter of one call: progress and log lines as
// notifications.
func (o *outbound) Emitter(_ context.Context, info demo.CallInfo) demo.Emitter {
	return demo.NotificationEmitter{Send: o.Send, Token: info.ProgressToken}
}

// Modes are the wire-level misbehave modes stdio can do: drop.
func (o *outbound) Modes() []string { return []string{demo.ModeDrop} }

// Sabotage does "drop": stop writing and end Serve without answering.
func (o *outbound) Sabotage(_ context.Context, mode string, _ jsonrpc.ID, _ json.RawMessage) (string, error) {
	if mode != demo.ModeDrop {
		return "", demo.RefuseMode(mode, "stdio")
	}
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	o.once.Do(func() { close(o.dropped) })
	return "", demo.ErrNoAnswer
}
