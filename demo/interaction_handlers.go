package demo

import (
	"encoding/json"
	"maps"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// InteractionVersion is the version of seed 002 the demo speaks.
const InteractionVersion = "0.1.0"

// interactiveFeatures are the feature flags of "Capability Negotiation".
func interactiveFeatures() map[string]bool {
	return map[string]bool{"statefulSessions": true, "progressTracking": true, "validation": true,
		"multiplePromptTypes": true, "sessionPersistence": false}
}

// interactiveCapabilities answers `capabilities`.
func interactiveCapabilities() mcp.InteractiveCapabilities {
	return mcp.InteractiveCapabilities{Interactive: true, Version: InteractionVersion, Features: interactiveFeatures()}
}

// interact serves an interaction.* request: the result or error, and what
// to do once it is sent (the next prompt, or the completion), so that the
// client reads the answer first.
func (c *Conn) interact(method string, params json.RawMessage) (any, *jsonrpc.Error, func()) {
	now := time.Now()
	switch method {
	case mcp.MethodInteractionStart:
		var p mcp.InteractionStartParams
		if rerr := decodeParams(method, params, &p); rerr != nil {
			return nil, rerr, nil
		}
		res, rerr := c.startInteraction(p, now)
		return res, rerr, nil
	case mcp.MethodInteractionRespond:
		var p mcp.InteractionRespondParams
		if rerr := decodeParams(method, params, &p); rerr != nil {
			return nil, rerr, nil
		}
		if ls, rerr := c.sessions.lookup(p.SessionID); rerr == nil {
			return c.respondLive(ls, p.Response, now)
		}
		return c.respondStateless(p.SessionID, p.Response, now)
	}
	var p mcp.InteractionCancelParams // getState's params are its sessionId alone
	if rerr := decodeParams(method, params, &p); rerr != nil {
		return nil, rerr, nil
	}
	if method == mcp.MethodInteractionGetState {
		res, rerr := c.interactionState(p.SessionID, now)
		return res, rerr, nil
	}
	res, rerr := c.cancelInteraction(p, now)
	return res, rerr, nil
}

// interactionState serves interaction.getState, for a stored session or
// a token.
func (c *Conn) interactionState(id string, now time.Time) (any, *jsonrpc.Error) {
	ls, rerr := c.sessions.lookup(id)
	if rerr != nil {
		w, st, _, terr := c.openToken(id, now)
		if terr != nil {
			return nil, terr
		}
		return st.snapshot(w, id, now), nil
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.st.snapshot(ls.w, ls.id, now), nil
}

// cancelInteraction serves interaction.cancel: any session not ended yet
// moves to cancelled and is cleaned up. A token is only verified: nothing
// is kept to forget.
func (c *Conn) cancelInteraction(p mcp.InteractionCancelParams, now time.Time) (any, *jsonrpc.Error) {
	ls, rerr := c.sessions.lookup(p.SessionID)
	if rerr != nil {
		_, st, inner, terr := c.openToken(p.SessionID, now)
		if terr != nil {
			return nil, terr
		}
		if st.State.Terminal() {
			return nil, st.refuseIn(inner, "cancel")
		}
		return mcp.InteractionCancelResult{Cancelled: true}, nil
	}
	ls.mu.Lock()
	if ls.st.State.Terminal() {
		defer ls.mu.Unlock()
		return nil, ls.st.refuseIn(ls.id, "cancel")
	}
	_ = ls.st.moveTo(ls.id, mcp.InteractionCancelled) // every state not ended may be cancelled
	c.srv.log.Debug("interactive session cancelled", "session", ls.id, "reason", p.Reason)
	c.sessions.settle(ls)
	return mcp.InteractionCancelResult{Cancelled: true}, nil
}

// decodeParams decodes the params of an interaction.* request and checks
// that it names a session where it must.
func decodeParams(method string, params json.RawMessage, v any) *jsonrpc.Error {
	if err := json.Unmarshal(params, v); err != nil {
		return invalidParams("%s params are malformed: %v", method, err)
	}
	var id struct {
		SessionID *string `json:"sessionId"`
	}
	_ = json.Unmarshal(params, &id)
	if method != mcp.MethodInteractionStart && (id.SessionID == nil || *id.SessionID == "") {
		return invalidParams("%s needs a sessionId", method)
	}
	return nil
}

// startInteraction serves interaction.start: a wizard tool's session,
// reported idle with its first prompt as initialPrompt (which moves it on
// to waiting_user, through active).
func (c *Conn) startInteraction(p mcp.InteractionStartParams, now time.Time) (any, *jsonrpc.Error) {
	w, ok := c.srv.wizard(p.ToolName)
	if !ok {
		if _, isTool := c.tool(p.ToolName); isTool {
			return nil, rpcError(mcp.CodeNotInteractive, map[string]string{"toolName": p.ToolName},
				"tool %q is not interactive; call it with tools/call", p.ToolName)
		}
		return nil, invalidParams("unknown tool %q; tools/list names the tools", p.ToolName)
	}
	st, rerr := newSessionState(w, p, now)
	if rerr != nil {
		return nil, rerr
	}
	id := newSessionID()
	if w.Stateless {
		token, rerr := c.sealToken(id, st)
		if rerr != nil {
			return nil, rerr
		}
		return startResult(w, st, token, now), nil
	}
	ls := &liveSession{id: id, w: w, st: st}
	if rerr := c.sessions.add(ls); rerr != nil {
		return nil, rerr
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	c.sessions.arm(ls)
	return startResult(w, st, id, now), nil
}

// startResult is the result of interaction.start.
func startResult(w *wizard, st *sessionState, id string, now time.Time) mcp.InteractionStartResult {
	return mcp.InteractionStartResult{SessionID: id, State: mcp.InteractionIdle, InitialPrompt: st.current(w, now),
		Progress: w.progress(st.Step), ExpiresAt: st.expiresAt().UnixMilli()}
}

// respondLive serves interaction.respond on a stateful session; the next
// prompt (or the retry) is sent after the answer, and the last answer
// starts the wizard's work on a goroutine.
func (c *Conn) respondLive(ls *liveSession, resp mcp.InteractionResponse, now time.Time) (any, *jsonrpc.Error, func()) {
	ls.mu.Lock()
	res, rerr := ls.st.respond(ls.w, ls.id, resp, now)
	if rerr != nil {
		c.sessions.settle(ls)
		return nil, rerr, nil
	}
	c.sessions.arm(ls)
	var then func()
	switch ls.st.State {
	case mcp.InteractionWaitingUser:
		if pp, err := ls.st.promptParams(ls.w, ls.id, now); err == nil {
			then = func() { c.tell(mcp.MethodInteractionPrompt, pp, c.sessions.failed(ls)) }
		}
	case mcp.InteractionProcessing:
		then = func() { c.spawn(func() { c.finishLive(ls) }) }
	}
	ls.mu.Unlock()
	return res, nil, then
}

// finishLive runs the wizard's work on the answers (outside the session's
// lock: it may take time, and the session is processing meanwhile), then
// completes the session unless it was cancelled or expired in between.
func (c *Conn) finishLive(ls *liveSession) {
	ls.mu.Lock()
	data := maps.Clone(ls.st.Data)
	ls.mu.Unlock()
	o, result := ls.w.outcome(data)
	ls.mu.Lock()
	cp, rerr := ls.st.finish(ls.id, o, result)
	c.sessions.settle(ls)
	if rerr == nil {
		c.tell(mcp.MethodInteractionComplete, cp, nil)
	}
}
