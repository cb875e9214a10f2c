package stdio

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto"
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
func (o *outbound) Send(m *proto.Message) error {
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
func (o *outbound) sendError(id proto.ID, code int, msg string) {
	_ = o.Send(proto.NewErrorResponse(id, code, msg, nil))
}

// notify writes a notification.
func (o *outbound) notify(method string, params any) error {
	m, err := proto.NewNotification(method, params)
	if err != nil {
		return err
	}
	return o.Send(m)
}

// Emitter returns the emitter of one call.
func (o *outbound) Emitter(_ context.Context, info demo.CallInfo) demo.Emitter {
	return emitter{o: o, token: info.ProgressToken}
}

// Sabotage does "drop": stop writing and end Serve without answering.
func (o *outbound) Sabotage(_ context.Context, mode string, _ proto.ID) (string, error) {
	if mode != "drop" {
		return "", &proto.Error{Code: proto.CodeInvalidParams,
			Message: fmt.Sprintf("misbehave mode %q needs MCP-Flow (control frames, streams); stdio cannot do it", mode)}
	}
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	o.once.Do(func() { close(o.dropped) })
	return "", demo.ErrNoAnswer
}

// emitter maps a call's emissions to MCP notifications.
type emitter struct {
	o     *outbound
	token *proto.ID
}

// Progress sends notifications/progress when the request asked for it.
func (e emitter) Progress(progress, total float64, message string) error {
	if e.token == nil {
		return nil
	}
	p := proto.ProgressNotificationParams{ProgressToken: *e.token, Progress: progress, Message: message}
	if total > 0 {
		p.Total = &total
	}
	return e.o.notify(proto.MethodNotifyProgress, p)
}

// Log sends notifications/message.
func (e emitter) Log(level, logger string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return e.o.notify(proto.MethodNotifyMessage, proto.LoggingMessageParams{Level: level, Logger: logger, Data: b})
}

// Audio is not possible: stdio has no datagrams.
func (emitter) Audio([]byte) error { return demo.ErrNoDatagrams }

// OpenStream is not possible: stdio has no execution streams.
func (emitter) OpenStream() (demo.ExecStream, error) { return nil, demo.ErrNoStreams }
