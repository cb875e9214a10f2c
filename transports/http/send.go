package mcphttp

import (
	"context"
	"fmt"

	"github.com/mcpscope/mcpscope/proto"
)

// Send POSTs m. It returns once the body went out, or with the error that
// kept it from going out, bounded by ctx; what answers it is read on a
// goroutine of its own and delivered. An answer that cannot come (an HTTP
// status without a JSON-RPC body, a stream that broke for good) fails the
// request at once through the engine's delivery, with a
// *client.ExchangeError.
func (t *Transport) Send(ctx context.Context, m *proto.Message) error {
	if err := t.life.Writable(); err != nil {
		return err
	}
	body, err := m.EncodeJSON()
	if err != nil {
		return fmt.Errorf("encoding %s: %w", describe(m), err)
	}
	if m.Method == proto.MethodInitialize {
		t.mu.Lock()
		t.initBody = body
		t.mu.Unlock()
	}
	if m.Method == proto.MethodNotifyInitialized {
		t.listenEarly(ctx)
	}
	return t.newExchange(m, body).start(ctx)
}
