package demo

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// NotificationEmitter is the Emitter of a transport without execution
// streams or datagrams (stdio, HTTP): progress becomes
// notifications/progress when the request carried a progress token, a log
// line notifications/message; Send writes them.
type NotificationEmitter struct {
	Send  func(*jsonrpc.Message) error
	Token *jsonrpc.ID // _meta.progressToken of the request, if any
}

// Progress sends notifications/progress when the request asked for it.
func (e NotificationEmitter) Progress(progress, total float64, message string) error {
	if e.Token == nil {
		return nil
	}
	p := mcp.ProgressNotificationParams{ProgressToken: *e.Token, Progress: progress, Message: message}
	if total > 0 {
		p.Total = &total
	}
	return e.notify(mcp.MethodNotifyProgress, p)
}

// Log sends notifications/message; data is any JSON value.
func (e NotificationEmitter) Log(level, logger string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("log data: %w", err)
	}
	return e.notify(mcp.MethodNotifyMessage, mcp.LoggingMessageParams{Level: level, Logger: logger, Data: raw})
}

// Audio is not possible: there are no datagrams.
func (NotificationEmitter) Audio([]byte) error { return ErrNoDatagrams }

// OpenStream is not possible: there are no execution streams.
func (NotificationEmitter) OpenStream() (ExecStream, error) { return nil, ErrNoStreams }

// notify sends one notification.
func (e NotificationEmitter) notify(method string, params any) error {
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		return err
	}
	return e.Send(m)
}
