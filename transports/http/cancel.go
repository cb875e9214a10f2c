package mcphttp

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// CancelRequest tells the server the client gave up on the request id.
// In the 2026-07-28 revision, and in seed 004's dialect, that is closing
// the request's answer stream (aborting the POST);
// in earlier ones it is notifications/cancelled, after which the stream is
// still read for CancelGrace, so what the server does next is captured.
func (t *Transport) CancelRequest(ctx context.Context, id proto.ID, reason string) error {
	t.mu.Lock()
	ex := t.exchanges[id]
	t.mu.Unlock()
	if ex != nil {
		ex.mu.Lock()
		ex.cancelled = true
		ex.mu.Unlock()
	}
	if ex != nil && (ex.modern != nil || t.cfg.Mode == ModeTools) {
		t.reportNote(capture.Out, ex.conn, fmt.Sprintf("closed the answer stream to cancel %s: %s", ex.msg.Describe(), reason))
		ex.cancel()
		return nil
	}
	params := map[string]any{"requestId": id}
	if reason != "" {
		params["reason"] = reason
	}
	m, err := proto.NewNotification(proto.MethodNotifyCancelled, params)
	if err != nil {
		return err
	}
	err = t.Send(ctx, m)
	if ex != nil {
		time.AfterFunc(t.cfg.CancelGrace, ex.forget)
	}
	return err
}

// ForgetRequest lets go of the POST and answer stream of the request with
// id, sending nothing: the engine no longer waits for it and has nothing
// to tell the server (client.Traits.Forget).
func (t *Transport) ForgetRequest(id proto.ID) {
	t.mu.Lock()
	ex := t.exchanges[id]
	t.mu.Unlock()
	if ex == nil {
		return
	}
	ex.mu.Lock()
	ex.cancelled = true
	ex.mu.Unlock()
	t.reportNote(capture.Out, ex.conn, "stopped reading the answer of "+ex.msg.Describe()+": no longer waited for")
	ex.cancel()
}
