package demo

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// callState is the bookkeeping of one running tools/call.
type callState struct {
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	answered bool
}

// claimAnswer reports whether the caller may send the call's answer: true
// once, false afterwards.
func (st *callState) claimAnswer() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.answered {
		return false
	}
	st.answered = true
	return true
}

// startCall validates a tools/call and runs its handler in a goroutine.
func (c *Conn) startCall(id jsonrpc.ID, params json.RawMessage) {
	var p mcp.CallToolParams
	if err := json.Unmarshal(params, &p); err != nil {
		c.answer(id, mcp.MethodToolsCall, nil, invalidParams("tools/call params are malformed: %v", err))
		return
	}
	tool, ok := c.tool(p.Name)
	if !ok {
		c.answer(id, mcp.MethodToolsCall, nil, invalidParams("unknown tool %q; tools/list names the tools", p.Name))
		return
	}
	ctx, cancel := context.WithCancelCause(context.WithValue(c.ctx, callKey{}, id))
	st := &callState{cancel: cancel}
	c.mu.Lock()
	if _, dup := c.inflight[id.Key()]; dup {
		c.mu.Unlock()
		cancel(nil)
		c.answer(id, mcp.MethodToolsCall, nil, rpcError(mcp.CodeInvalidRequest, nil, "request id %s is already in flight", id))
		return
	}
	c.inflight[id.Key()] = st
	c.mu.Unlock()

	info := CallInfo{ID: id, ProgressToken: progressToken(p.Meta)}
	call := &Call{ID: id, Args: p.Arguments, Emit: levelFilter{c.out.Emitter(ctx, info), c}, conn: c, state: st}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		res, err := c.runHandler(ctx, tool, call)
		c.finish(ctx, call, res, err)
		c.mu.Lock()
		delete(c.inflight, id.Key())
		c.mu.Unlock()
		cancel(nil)
	}()
}

// runHandler runs the tool, turning a panic into an internal error.
func (c *Conn) runHandler(ctx context.Context, tool Tool, call *Call) (res *ToolResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			c.srv.log.Error("tool panicked", "tool", tool.Name, "panic", r)
			res, err = nil, rpcError(mcp.CodeInternalError, nil, "tool %s failed unexpectedly", tool.Name)
		}
	}()
	return tool.Handler(ctx, call)
}

// finish sends the call's answer unless it was sent already: "Cancelled"
// after $/cancel, nothing after notifications/cancelled or when the
// connection went, else the handler's result or error.
func (c *Conn) finish(ctx context.Context, call *Call, res *ToolResult, err error) {
	cause := context.Cause(ctx)
	if ctx.Err() != nil && !errors.Is(cause, errCancelAnswered) {
		return
	}
	if errors.Is(err, ErrNoAnswer) || !call.state.claimAnswer() {
		if err != nil && !errors.Is(err, ErrNoAnswer) {
			c.srv.log.Debug("tool failed after answering", "id", call.ID.String(), "err", err)
		}
		return
	}
	switch {
	case ctx.Err() != nil:
		c.answer(call.ID, mcp.MethodToolsCall, nil, &jsonrpc.Error{Code: CodeCancelled, Message: "Cancelled"})
	case err != nil:
		var rerr *jsonrpc.Error
		if !errors.As(err, &rerr) {
			rerr = rpcError(mcp.CodeInternalError, nil, "%v", err)
		}
		c.answer(call.ID, mcp.MethodToolsCall, nil, rerr)
	case res == nil:
		c.answer(call.ID, mcp.MethodToolsCall, &ToolResult{Content: []any{}}, nil)
	default:
		c.answer(call.ID, mcp.MethodToolsCall, res, nil)
	}
}

// progressToken extracts _meta.progressToken from a request's _meta.
func progressToken(meta json.RawMessage) *jsonrpc.ID {
	var m struct {
		Token *jsonrpc.ID `json:"progressToken"`
	}
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil || m.Token == nil || m.Token.IsNull() {
		return nil
	}
	return m.Token
}

// logLevels are the syslog levels of MCP logging, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// levelIndex returns the index of a level name, or -1.
func levelIndex(level string) int {
	for i, l := range logLevels {
		if l == level {
			return i
		}
	}
	return -1
}

// setLevel answers logging/setLevel.
func (c *Conn) setLevel(params json.RawMessage) (any, *jsonrpc.Error) {
	var p mcp.SetLevelParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, invalidParams("logging/setLevel params are malformed: %v", err)
	}
	i := levelIndex(p.Level)
	if i < 0 {
		return nil, invalidParams("unknown log level %q; one of debug, info, notice, warning, error, critical, alert, emergency", p.Level)
	}
	c.mu.Lock()
	c.level = i
	c.mu.Unlock()
	return mcp.EmptyObject, nil
}

// levelFilter drops log lines below the level the client asked for.
type levelFilter struct {
	Emitter
	c *Conn
}

// Log sends the line when its level is at or above the connection's level.
func (f levelFilter) Log(level, logger string, data any) error {
	f.c.mu.Lock()
	min := f.c.level
	f.c.mu.Unlock()
	if levelIndex(level) < min {
		return nil
	}
	return f.Emitter.Log(level, logger, data)
}
