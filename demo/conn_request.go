package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxServerRequests bounds the server→client requests awaiting an answer
// on one connection; past it Request refuses new ones.
const maxServerRequests = 256

// serverRequests is the bookkeeping of the requests the server sends to
// the client. Their ids are integers 1, 2, … in the server's own id space
// (JSON-RPC ids are per sender), unsigned 32-bit as MCP-Flow requires.
type serverRequests struct {
	seq      atomic.Uint64
	mu       sync.Mutex
	awaiting map[string]chan *jsonrpc.Message // by id key; buffered, one answer
}

// pendingRequest is one request sent to the client, awaiting its answer.
type pendingRequest struct {
	c      *Conn
	id     jsonrpc.ID
	method string
	answer chan *jsonrpc.Message
}

// Request sends a request to the client (elicitation/create,
// interaction.prompt, …) and waits for its answer. An error response is
// returned as an error wrapping its *jsonrpc.Error. When ctx ends first the
// client is told with notifications/cancelled; when the connection closes
// first the request fails too. A request made with a call's context is a
// message of that call (see ContextSender).
func (c *Conn) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	p, err := c.sendRequest(ctx, method, params)
	if err != nil {
		return nil, err
	}
	return p.wait(ctx)
}

// sendRequest sends a request now, as a message of the call whose context
// ctx is (if any), and returns what waits for its answer. The caller must
// wait (or the slot stays taken until the connection closes).
func (c *Conn) sendRequest(ctx context.Context, method string, params any) (*pendingRequest, error) {
	id := jsonrpc.IntID(int64(c.requests.seq.Add(1) & 0xFFFFFFFF))
	m, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		return nil, fmt.Errorf("the %s request cannot be encoded: %w", method, err)
	}
	p := &pendingRequest{c: c, id: id, method: method, answer: make(chan *jsonrpc.Message, 1)}
	r := &c.requests
	r.mu.Lock()
	if len(r.awaiting) >= maxServerRequests {
		r.mu.Unlock()
		return nil, fmt.Errorf("the %s request is refused: %d requests to the client await an answer already", method, maxServerRequests)
	}
	r.awaiting[id.Key()] = p.answer
	r.mu.Unlock()
	if err := c.sendFor(ctx, m); err != nil {
		r.forget(id)
		return nil, fmt.Errorf("the %s request could not be sent: %w", method, err)
	}
	return p, nil
}

// wait returns the client's answer, or fails when ctx ends (telling the
// client) or the connection closes.
func (p *pendingRequest) wait(ctx context.Context) (json.RawMessage, error) {
	defer p.c.requests.forget(p.id)
	select {
	case m := <-p.answer:
		if m.Error != nil {
			return nil, fmt.Errorf("the client answered %s with an error: %w", p.method, m.Error)
		}
		return m.Result, nil
	case <-ctx.Done():
		cause := context.Cause(ctx)
		if n, err := jsonrpc.NewNotification(mcp.MethodNotifyCancelled, mcp.CancelledNotificationParams{
			RequestID: p.id, Reason: cause.Error()}); err == nil {
			_ = p.c.sendFor(ctx, n)
		}
		return nil, fmt.Errorf("the %s request was given up: %w", p.method, cause)
	case <-p.c.ctx.Done():
		return nil, fmt.Errorf("the %s request got no answer: %w", p.method, context.Cause(p.c.ctx))
	}
}

// complete hands a response to the request it answers; a response to no
// awaited request is dropped.
func (r *serverRequests) complete(m *jsonrpc.Message) {
	if m.ID == nil {
		return
	}
	r.mu.Lock()
	ch, ok := r.awaiting[m.ID.Key()]
	delete(r.awaiting, m.ID.Key())
	r.mu.Unlock()
	if ok {
		ch <- m // buffered: one answer per request
	}
}

// forget drops the bookkeeping of a request.
func (r *serverRequests) forget(id jsonrpc.ID) {
	r.mu.Lock()
	delete(r.awaiting, id.Key())
	r.mu.Unlock()
}
