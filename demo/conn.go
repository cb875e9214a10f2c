package demo

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mcpscope/mcpscope/proto"
)

var (
	errCancelAnswered = errors.New("cancelled with $/cancel")
	errCancelSilent   = errors.New("cancelled with notifications/cancelled")
	errConnClosed     = errors.New("the connection closed")
)

// Outbound is the transport side of one connection.
type Outbound interface {
	// Send writes one message to the client. Concurrent calls are safe.
	Send(m *proto.Message) error
	// Emitter returns what the call may emit; ctx is the call's context.
	Emitter(ctx context.Context, info CallInfo) Emitter
}

// Conn is one client connection as the core serves it.
type Conn struct {
	srv *Server
	out Outbound

	ctx    context.Context
	cancel context.CancelCauseFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	inflight map[string]*callState
	level    int // minimum log level index (see logLevels)
}

// NewConn starts serving one connection whose messages go to out.
func (s *Server) NewConn(out Outbound) *Conn {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &Conn{srv: s, out: out, ctx: ctx, cancel: cancel, inflight: make(map[string]*callState)}
}

// Close cancels every running call and waits for their handlers.
func (c *Conn) Close() {
	c.cancel(errConnClosed)
	c.wg.Wait()
}

// Drain waits until every running call has finished (and answered), or
// ctx is done.
func (c *Conn) Drain(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// InFlight reports whether a tools/call with this id is still running.
func (c *Conn) InFlight(id proto.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.inflight[id.Key()]
	return ok
}

// Handle serves one message from the client. Requests other than
// tools/call are answered before Handle returns; a tools/call runs in its
// own goroutine. Responses from the client are ignored (the demo sends no
// requests).
func (c *Conn) Handle(m *proto.Message) {
	switch m.Kind() {
	case proto.KindRequest:
		c.request(m)
	case proto.KindNotification:
		c.notification(m)
	}
}

// request dispatches a request.
func (c *Conn) request(m *proto.Message) {
	id := *m.ID
	var result any
	var rerr *proto.Error
	switch m.Method {
	case proto.MethodInitialize:
		result, rerr = c.srv.Initialize(m.Params)
	case proto.MethodPing:
		result = proto.EmptyObject
	case proto.MethodToolsList:
		result = c.srv.listTools()
	case proto.MethodToolsCall:
		c.startCall(id, m.Params)
		return
	case proto.MethodResourcesList:
		result = listResources()
	case proto.MethodResourcesRead:
		result, rerr = readResource(m.Params)
	case proto.MethodPromptsList:
		result = listPrompts()
	case proto.MethodPromptsGet:
		result, rerr = getPrompt(m.Params)
	case proto.MethodLoggingSetLevel:
		result, rerr = c.setLevel(m.Params)
	default:
		rerr = rpcError(proto.CodeMethodNotFound, nil, "method %q is not offered by the demo server", m.Method)
	}
	c.answer(id, result, rerr)
}

// answer sends a result or an error response.
func (c *Conn) answer(id proto.ID, result any, rerr *proto.Error) {
	var m *proto.Message
	if rerr != nil {
		m = &proto.Message{JSONRPC: proto.Version, ID: &id, Error: rerr}
	} else {
		var err error
		if m, err = proto.NewResult(id, result); err != nil {
			m = proto.NewErrorResponse(id, proto.CodeInternalError, err.Error(), nil)
		}
	}
	if err := c.out.Send(m); err != nil {
		c.srv.log.Debug("answer not sent", "id", id.String(), "err", err)
	}
}

// notification handles a notification: cancellations; the rest is noted.
func (c *Conn) notification(m *proto.Message) {
	var cause error
	switch m.Method {
	case proto.MethodFlowCancel:
		cause = errCancelAnswered
	case proto.MethodNotifyCancelled:
		cause = errCancelSilent
	default:
		return
	}
	var p proto.CancelledNotificationParams
	if json.Unmarshal(m.Params, &p) != nil {
		return
	}
	c.mu.Lock()
	st := c.inflight[p.RequestID.Key()]
	c.mu.Unlock()
	if st != nil {
		st.cancel(cause)
	}
}
