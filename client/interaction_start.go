package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// InteractiveCapabilities says whether the server runs interactive sessions
// (seed 002, "Capability Discovery"). It reads capabilities.interactive of
// the handshake result first (true, false, or {version, features}); without
// one it calls `capabilities`. A server answering -32601 (method not found)
// or -32007 (NOT_INTERACTIVE) is not interactive: the result is
// {Interactive:false} with a nil error, and the caller degrades to
// tools/call. A dialect with no handshake (tools-http, tools-ws) carries
// tools/call alone: it is not interactive, and nothing is asked.
func (s *Session) InteractiveCapabilities(ctx context.Context) (mcp.InteractiveCapabilities, error) {
	if caps, ok := interactiveFromHandshake(s.ServerCapabilities()); ok {
		return caps, nil
	}
	if s.HandshakeFree() {
		return mcp.InteractiveCapabilities{}, nil
	}
	raw, err := s.Call(ctx, mcp.MethodCapabilities, nil)
	if err != nil {
		var rpcErr *RPCError
		if errors.As(err, &rpcErr) && (rpcErr.Err.Code == mcp.CodeMethodNotFound || rpcErr.Err.Code == mcp.CodeNotInteractive) {
			return mcp.InteractiveCapabilities{}, nil
		}
		return mcp.InteractiveCapabilities{}, err
	}
	var caps mcp.InteractiveCapabilities
	if err := json.Unmarshal(raw, &caps); err != nil {
		return caps, &ProtocolError{Msg: fmt.Sprintf("the %s result is malformed: %v", mcp.MethodCapabilities, err)}
	}
	return caps, nil
}

// interactiveFromHandshake reads capabilities.interactive of the handshake
// result: true or false, or an object {version, features} (interactive
// unless it says "interactive":false). ok is false when there is none.
func interactiveFromHandshake(serverCaps json.RawMessage) (mcp.InteractiveCapabilities, bool) {
	var caps struct {
		Interactive json.RawMessage `json:"interactive"`
	}
	if json.Unmarshal(serverCaps, &caps) != nil {
		return mcp.InteractiveCapabilities{}, false
	}
	v := bytes.TrimSpace(caps.Interactive)
	switch {
	case len(v) == 0 || string(v) == "null":
		return mcp.InteractiveCapabilities{}, false
	case string(v) == "true" || string(v) == "false":
		return mcp.InteractiveCapabilities{Interactive: string(v) == "true"}, true
	}
	var obj mcp.InteractiveCapabilities
	var flag struct {
		Interactive *bool `json:"interactive"`
	}
	if json.Unmarshal(v, &obj) != nil || json.Unmarshal(v, &flag) != nil {
		return mcp.InteractiveCapabilities{}, false
	}
	obj.Interactive = flag.Interactive == nil || *flag.Interactive
	return obj, true
}

// StartInteraction starts an interactive session (interaction.start) and
// returns it. The start result's initialPrompt is its first event
// (EventPrompt, state idle → waiting_user); otherwise the state is the
// result's. Later interaction.prompt, .continue and .complete requests for
// its sessionId reach it, even one that overtakes the start result.
func (s *Session) StartInteraction(ctx context.Context, p mcp.InteractionStartParams) (*Interaction, error) {
	s.mu.Lock()
	s.inter.starting++
	s.mu.Unlock()

	raw, err := s.Call(ctx, mcp.MethodInteractionStart, p)
	var res mcp.InteractionStartResult
	if err == nil {
		if jerr := json.Unmarshal(raw, &res); jerr != nil {
			err = &ProtocolError{Msg: fmt.Sprintf("the %s result is malformed: %v", mcp.MethodInteractionStart, jerr)}
		} else if res.SessionID == "" {
			err = &ProtocolError{Msg: fmt.Sprintf("the %s result names no sessionId", mcp.MethodInteractionStart)}
		}
	}

	s.mu.Lock()
	s.inter.starting--
	var i *Interaction
	if err == nil {
		i, err = s.addInteractionLocked(p.ToolName, res)
	}
	acks := s.replayParkedLocked()
	s.mu.Unlock()
	s.sendInteractionAcks(acks)
	return i, err
}

// addInteractionLocked registers the session a start result names and
// applies the result.
func (s *Session) addInteractionLocked(tool string, res mcp.InteractionStartResult) (*Interaction, error) {
	if s.failure != nil {
		return nil, s.failure
	}
	key := InteractionKey(res.SessionID)
	if _, dup := s.inter.open[key]; dup {
		return nil, &ProtocolError{Msg: fmt.Sprintf("the server started session %s twice", key)}
	}
	if s.inter.open == nil {
		s.inter.open = make(map[string]*Interaction)
	}
	i := &Interaction{s: s, key: key, tool: tool, id: res.SessionID,
		state: mcp.InteractionIdle, events: make(chan InteractionEvent, interactionEventQueue+1)}
	s.inter.open[key] = i
	i.noteExpiryLocked(res.ExpiresAt)
	if res.InitialPrompt != nil {
		ev := InteractionEvent{Kind: EventPrompt, Prompt: res.InitialPrompt, Progress: res.Progress}
		_ = i.promptLocked(mcp.MethodInteractionStart, res.SessionID, res.ExpiresAt, ev)
		return i, nil
	}
	switch to := res.State; {
	case to == "" || to == mcp.InteractionIdle:
	case to == mcp.InteractionError || to == mcp.InteractionCancelled:
		i.endLocked(to, &InteractionEvent{Kind: EventError,
			Err: fmt.Errorf("the server started session %s in state %s", key, to)})
	case i.state.CanMoveTo(to):
		i.state = to
	default:
		_ = i.refuseLocked(mcp.MethodInteractionStart, res.SessionID, to)
	}
	return i, nil
}
