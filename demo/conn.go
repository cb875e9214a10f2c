package demo

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

var (
	errCancelAnswered = errors.New("cancelled with $/cancel")
	errCancelSilent   = errors.New("cancelled with notifications/cancelled")
	errConnClosed     = errors.New("the connection closed")
)

// Outbound is the transport side of one connection.
type Outbound interface {
	// Send writes one message to the client. Concurrent calls are safe.
	Send(m *jsonrpc.Message) error
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
	c.requests.awaiting = make(map[string]chan *jsonrpc.Message)
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
func (c *Conn) InFlight(id jsonrpc.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.inflight[id.Key()]
	return ok
}

// Handle serves one message from the client. Requests other than
// tools/call are answered before Handle returns; a tools/call runs in its
// own goroutine. A response completes the server request it answers (see
// Request); one whose id is not awaited is ignored.
func (c *Conn) Handle(m *jsonrpc.Message) {
	switch m.Kind() {
	case jsonrpc.KindRequest:
		c.request(m)
	case jsonrpc.KindNotification:
		c.notification(m)
	case jsonrpc.KindResult, jsonrpc.KindError:
		c.requests.complete(m)
	}
}

// request dispatches a request.
func (c *Conn) request(m *jsonrpc.Message) {
	id := *m.ID
	var result any
	var rerr *jsonrpc.Error
	switch m.Method {
	case mcp.MethodInitialize:
		result, rerr = c.srv.Initialize(m.Params)
	case mcp.MethodPing:
		result = mcp.EmptyObject
	case mcp.MethodToolsList:
		result = c.srv.listTools(c.addedTools())
	case mcp.MethodToolsCall:
		c.startCall(id, m.Params)
		return
	case mcp.MethodResourcesList:
		result = listResources()
	case mcp.MethodResourceTemplatesList:
		result = listResourceTemplates()
	case mcp.MethodResourcesRead:
		result, rerr = c.srv.readResource(m.Params)
	case mcp.MethodSkillsList:
		result = c.srv.listSkills()
	case mcp.MethodSkillsGet:
		result, rerr = c.srv.getSkill(m.Params)
	case mcp.MethodResourcesDirectoryRead:
		result, rerr = readSkillDirectory(m.Params)
	case mcp.MethodPromptsList:
		result = listPrompts()
	case mcp.MethodPromptsGet:
		result, rerr = getPrompt(m.Params)
	case mcp.MethodCompletionComplete:
		result, rerr = complete(m.Params)
	case mcp.MethodLoggingSetLevel:
		result, rerr = c.setLevel(m.Params)
	case mcp.MethodCapabilities:
		result = interactiveCapabilities()
	case mcp.MethodInteractionStart, mcp.MethodInteractionRespond, mcp.MethodInteractionCancel, mcp.MethodInteractionGetState:
		var then func()
		result, rerr, then = c.interact(m.Method, m.Params)
		c.answer(id, m.Method, result, rerr)
		if then != nil {
			then()
		}
		return
	default:
		rerr = rpcError(mcp.CodeMethodNotFound, nil, "method %q is not offered by the demo server", m.Method)
	}
	c.answer(id, m.Method, result, rerr)
}

// answer sends a result or an error response to a request of method;
// a result is decorated for its client's era (modernResult).
func (c *Conn) answer(id jsonrpc.ID, method string, result any, rerr *jsonrpc.Error) {
	var m *jsonrpc.Message
	if rerr != nil {
		m = &jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: &id, Error: rerr}
	} else {
		var err error
		if m, err = jsonrpc.NewResult(id, c.modernResult(method, result)); err != nil {
			m = jsonrpc.NewErrorResponse(id, mcp.CodeInternalError, err.Error(), nil)
		}
	}
	if err := c.out.Send(m); err != nil {
		c.srv.log.Debug("answer not sent", "id", id.String(), "err", err)
	}
}

// notification handles a notification: cancellations; the rest is noted.
func (c *Conn) notification(m *jsonrpc.Message) {
	var cause error
	switch m.Method {
	case flow.MethodFlowCancel:
		cause = errCancelAnswered
	case mcp.MethodNotifyCancelled:
		cause = errCancelSilent
	default:
		return
	}
	var p mcp.CancelledNotificationParams
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
