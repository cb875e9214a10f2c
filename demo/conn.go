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
	level    int  // minimum log level index (see logLevels)
	closing  bool // Close began: no new goroutines (see spawn)

	requests serverRequests // requests the server sent to the client
	sessions *sessionStore  // interactive sessions of this connection
}

// NewConn starts serving one connection whose messages go to out.
func (s *Server) NewConn(out Outbound) *Conn {
	ctx, cancel := context.WithCancelCause(context.Background())
	c := &Conn{srv: s, out: out, ctx: ctx, cancel: cancel, inflight: make(map[string]*callState)}
	c.requests.awaiting = make(map[string]chan *proto.Message)
	c.sessions = newSessionStore(c)
	return c
}

// Close cancels every running call, server request and interactive
// session, and waits for their goroutines.
func (c *Conn) Close() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.cancel(errConnClosed)
	c.sessions.closeAll()
	c.wg.Wait()
}

// spawn runs f on a goroutine that Close waits for; once Close has begun
// it runs nothing and reports false.
func (c *Conn) spawn(f func()) bool {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return false
	}
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		f()
	}()
	return true
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
// own goroutine. A response completes the server request it answers (see
// Request); one whose id is not awaited is ignored.
func (c *Conn) Handle(m *proto.Message) {
	switch m.Kind() {
	case proto.KindRequest:
		c.request(m)
	case proto.KindNotification:
		c.notification(m)
	case proto.KindResult, proto.KindError:
		c.requests.complete(m)
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
		result = c.srv.listTools(c.addedTools())
	case proto.MethodToolsCall:
		c.startCall(id, m.Params)
		return
	case proto.MethodResourcesList:
		result = listResources()
	case proto.MethodResourceTemplatesList:
		result = listResourceTemplates()
	case proto.MethodResourcesRead:
		result, rerr = readResource(m.Params)
	case proto.MethodPromptsList:
		result = listPrompts()
	case proto.MethodPromptsGet:
		result, rerr = getPrompt(m.Params)
	case proto.MethodLoggingSetLevel:
		result, rerr = c.setLevel(m.Params)
	case proto.MethodCapabilities:
		result = interactiveCapabilities()
	case proto.MethodInteractionStart, proto.MethodInteractionRespond, proto.MethodInteractionCancel, proto.MethodInteractionGetState:
		var then func()
		result, rerr, then = c.interact(m.Method, m.Params)
		c.answer(id, result, rerr)
		if then != nil {
			then()
		}
		return
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
