package mcphttp

import (
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// giveUp returns the exchange of the request with id still open,
// marked as given up on, or nil.
func (t *Transport) giveUp(id jsonrpc.ID) *exchange {
	t.mu.Lock()
	ex := t.exchanges[id]
	t.mu.Unlock()
	if ex != nil {
		ex.mu.Lock()
		ex.cancelled = true
		ex.mu.Unlock()
	}
	return ex
}

// AbortRequest closes the POST and answer stream of the request with id,
// noting reason in the capture: how the 2026-07-28 revision and seed 004's
// dialect cancel a request (client.Traits.Abort). It reports false when
// no exchange of the request is open.
func (t *Transport) AbortRequest(id jsonrpc.ID, reason string) bool {
	ex := t.giveUp(id)
	if ex == nil {
		return false
	}
	t.reportNote(capture.Out, ex.conn, fmt.Sprintf("closed the answer stream to cancel %s: %s", ex.msg.Describe(), reason))
	ex.cancel()
	return true
}

// CancelNotified stops delivering the answer of the request with id, which
// the engine gave up on and cancels with notifications/cancelled; its
// stream is still read for CancelGrace, so that what the server does next
// is captured (client.Traits.Cancelled).
func (t *Transport) CancelNotified(id jsonrpc.ID) {
	if ex := t.giveUp(id); ex != nil {
		time.AfterFunc(t.cfg.CancelGrace, ex.forget)
	}
}

// ForgetRequest lets go of the POST and answer stream of the request with
// id, sending nothing: the engine no longer waits for it and has nothing
// to tell the server (client.Traits.Forget).
func (t *Transport) ForgetRequest(id jsonrpc.ID) {
	ex := t.giveUp(id)
	if ex == nil {
		return
	}
	t.reportNote(capture.Out, ex.conn, "stopped reading the answer of "+ex.msg.Describe()+": no longer waited for")
	ex.cancel()
}
