package mcphttp

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Send POSTs m. It returns once the body went out (for
// notifications/initialized, once the server answered its POST), or with
// the error that kept it from going out, bounded by ctx; what answers it
// is read on a goroutine of its own and delivered. An answer that cannot
// come (an HTTP status without a JSON-RPC body, a stream that broke for
// good) fails the request at once through the engine's delivery, with a
// *client.ExchangeError.
func (t *Transport) Send(ctx context.Context, m *jsonrpc.Message) error {
	if err := t.life.Writable(); err != nil {
		return err
	}
	body, err := m.EncodeJSON()
	if err != nil {
		return fmt.Errorf("encoding %s: %w", m.Describe(), err)
	}
	if m.Method == mcp.MethodInitialize {
		t.beginSession()
	}
	if m.Method == mcp.MethodNotifyInitialized {
		t.listenEarly(ctx)
		said := t.newExchange(m, body)
		said.resent = client.InRestartedSession(ctx) // a 404 to it is the new session forgotten at once
		return said.startAccepted(ctx)
	}
	if m.IsResponse() {
		deadline, limited := ctx.Deadline()
		limit := time.Until(deadline)
		places, err := t.takeReplySlot(ctx, m)
		if err != nil {
			return err
		}
		if limited {
			// Waiting for a place is no sign of a server that stopped
			// reading (it took the bodies of the POSTs it holds): the
			// answer's own POST gets the whole limit again.
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), limit)
			defer cancel()
		}
		ex := t.newExchange(m, body)
		ex.replies = places
		return ex.start(ctx)
	}
	ex := t.newExchange(m, body)
	ex.params = client.ParamHeadersOf(ctx)
	return ex.start(ctx)
}

// beginSession notes that an initialize goes out: a 404 in the session it
// begins means the server forgot it. When a session runs already, its
// standalone GET stream ends first, before the new session has an id, so
// that it never asks again under the new one.
func (t *Transport) beginSession() {
	t.mu.Lock()
	t.initSent = true
	running := t.session != ""
	t.mu.Unlock()
	if running {
		t.stopListening()
	}
}

// startAccepted sends ex's message and returns once its POST has its
// response head (or failed), bounded by ctx: no request of the session
// goes out before the server took notifications/initialized, even on
// another connection.
func (ex *exchange) startAccepted(ctx context.Context) error {
	ex.responded = make(chan struct{})
	if err := ex.start(ctx); err != nil {
		return err
	}
	select {
	case <-ex.responded:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the server to take %s: %w", ex.msg.Describe(), context.Cause(ctx))
	}
}
