package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of the interaction registry.
const (
	// maxParkedInteractionRequests bounds the server requests held while an
	// interaction.start is in flight (a prompt may overtake the start
	// result on some transports).
	maxParkedInteractionRequests = 64
	// maxEndedInteractions bounds the ended sessions remembered, so a late
	// prompt for one is answered -32003 rather than -32001.
	maxEndedInteractions = 256
)

// interactionRegistry holds a session's interactive sessions; guarded by
// Session.mu.
type interactionRegistry struct {
	open       map[string]*Interaction // by routing key
	ended      map[string]mcp.InteractionState
	endedOrder []string
	starting   int                // interaction.start calls in flight
	parked     []*jsonrpc.Message // requests for a session not known yet
}

// InteractionKey returns the key that names an interactive session
// whatever its sessionId has become, the key a sessionId is routed by: the
// session id inside a stateless server's signed token (which changes as
// the session advances), or the sessionId itself.
func InteractionKey(sessionID string) string {
	if tok, ok := mcp.DecodeSessionToken(sessionID); ok {
		return tok.SessionID
	}
	return sessionID
}

// isInteractionRequest reports whether method is a server → client request
// of interactive sessions.
func isInteractionRequest(method string) bool {
	switch method {
	case mcp.MethodInteractionPrompt, mcp.MethodInteractionContinue, mcp.MethodInteractionComplete:
		return true
	}
	return false
}

// routeInteraction takes interaction.prompt, .continue and .complete before
// the ServerRequestHandler sees them, and reports whether it did. It runs
// on the reader, so the state follows the wire order, and never blocks:
// the answer is sent from its own goroutine.
func (s *Session) routeInteraction(m *jsonrpc.Message) bool {
	if !isInteractionRequest(m.Method) {
		return false
	}
	select {
	case s.handlers <- struct{}{}:
	default:
		s.refuseBusy(m)
		return true
	}
	s.mu.Lock()
	if s.failure != nil {
		s.mu.Unlock()
		<-s.handlers
		return true
	}
	acks := s.handleInteractionLocked(m, nil)
	s.mu.Unlock()
	s.sendInteractionAcks(acks)
	return true
}

// interactionAck is the answer due to one server request.
type interactionAck struct {
	id     jsonrpc.ID
	result any
	err    *jsonrpc.Error
}

// sendInteractionAcks sends answers, each holding a handler slot, off the
// caller's goroutine.
func (s *Session) sendInteractionAcks(acks []interactionAck) {
	for _, a := range acks {
		go func() {
			defer func() { <-s.handlers }()
			s.respond(WithQuestionOrigin(context.Background(), QuestionOrigin{RequestID: a.id}), a.id, a.result, a.err)
		}()
	}
}

// handleInteractionLocked applies one request and appends its answer to
// acks, unless it is parked until a start in flight returns.
func (s *Session) handleInteractionLocked(m *jsonrpc.Message, acks []interactionAck) []interactionAck {
	reg := &s.inter
	var head struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(m.Params, &head); err != nil || head.SessionID == "" {
		return append(acks, interactionAck{id: *m.ID, err: &jsonrpc.Error{Code: mcp.CodeInvalidParams,
			Message: fmt.Sprintf("%s params must be an object with a sessionId", m.Method)}})
	}
	key := InteractionKey(head.SessionID)
	i := reg.open[key]
	if i == nil {
		if st, ok := reg.ended[key]; ok {
			return append(acks, interactionAck{id: *m.ID, err: illegalError(head.SessionID, st, targetOf(m.Method))})
		}
		if reg.starting > 0 && len(reg.parked) < maxParkedInteractionRequests {
			reg.parked = append(reg.parked, m)
			return acks
		}
		return append(acks, interactionAck{id: *m.ID, err: &jsonrpc.Error{Code: mcp.CodeSessionNotFound,
			Message: "Session not found: " + head.SessionID, Data: mustJSON(map[string]string{"sessionId": head.SessionID})}})
	}
	result, rpcErr := i.applyLocked(m.Method, head.SessionID, m.Params)
	return append(acks, interactionAck{id: *m.ID, result: result, err: rpcErr})
}

// replayParkedLocked hands the parked requests to the sessions now known,
// in arrival order; with no start left in flight the rest are answered
// -32001.
func (s *Session) replayParkedLocked() []interactionAck {
	parked := s.inter.parked
	s.inter.parked = nil
	var acks []interactionAck
	for _, m := range parked {
		acks = s.handleInteractionLocked(m, acks)
	}
	return acks
}

// targetOf is the state a server request asks for.
func targetOf(method string) mcp.InteractionState {
	if method == mcp.MethodInteractionComplete {
		return mcp.InteractionCompleted
	}
	return mcp.InteractionWaitingUser
}

// illegalError is the -32003 answer to a refused transition.
func illegalError(sessionID string, from, to mcp.InteractionState) *jsonrpc.Error {
	return &jsonrpc.Error{Code: mcp.CodeInvalidStateTransition,
		Message: fmt.Sprintf("Invalid state transition from %s to %s", from, to),
		Data:    mustJSON(map[string]string{"sessionId": sessionID, "from": string(from), "to": string(to)})}
}

// applyLocked applies a prompt, continue or complete to i and returns the
// answer due to the server.
func (i *Interaction) applyLocked(method, sessionID string, params json.RawMessage) (any, *jsonrpc.Error) {
	badParams := func(err error) *jsonrpc.Error {
		return &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: fmt.Sprintf("%s params are malformed: %v", method, err)}
	}
	ack := mcp.InteractionAck{Acknowledged: true}
	switch method {
	case mcp.MethodInteractionPrompt:
		var p mcp.InteractionPromptParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, badParams(err)
		}
		ev := InteractionEvent{Kind: EventPrompt, Prompt: &p.Prompt, Progress: p.Progress}
		return ack, i.promptLocked(method, sessionID, p.ExpiresAt, ev)
	case mcp.MethodInteractionContinue:
		var p mcp.InteractionContinueParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, badParams(err)
		}
		ev := InteractionEvent{Kind: EventContinue, Prompt: p.NextPrompt, Progress: p.Progress, Message: p.Message}
		if p.NextPrompt != nil {
			return ack, i.promptLocked(method, sessionID, p.ExpiresAt, ev)
		}
		i.id = sessionID
		i.noteExpiryLocked(p.ExpiresAt)
		if i.state == mcp.InteractionIdle {
			i.state = mcp.InteractionActive // the tool began its execution
		}
		return ack, i.emittedLocked(i.emitLocked(ev))
	default: // interaction.complete
		var p mcp.InteractionCompleteParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, badParams(err)
		}
		if rpcErr := i.refuseLocked(method, sessionID, mcp.InteractionCompleted); rpcErr != nil {
			return nil, rpcErr
		}
		i.id = sessionID
		i.endLocked(mcp.InteractionCompleted, &InteractionEvent{Kind: EventComplete, Complete: &p})
		return mcp.InteractionCompleteResult{Success: true, FinalResult: p.Result}, nil
	}
}

// promptLocked shows a new prompt (ev carries it): the state moves to
// waiting_user. A prompt while waiting_user replaces the current one (the
// seed's "Validation Retry" sends the prompt again after a refusal).
func (i *Interaction) promptLocked(method, sessionID string, expiresAt int64, ev InteractionEvent) *jsonrpc.Error {
	if i.state != mcp.InteractionWaitingUser {
		if rpcErr := i.refuseLocked(method, sessionID, mcp.InteractionWaitingUser); rpcErr != nil {
			return rpcErr
		}
	}
	i.id = sessionID
	i.noteExpiryLocked(expiresAt)
	i.state = mcp.InteractionWaitingUser
	i.prompt, i.refusal = ev.Prompt, nil
	i.seq++
	return i.emittedLocked(i.emitLocked(ev))
}

// refuseLocked returns nil when i may move to to; otherwise it reports an
// EventIllegal and returns the -32003 answer.
func (i *Interaction) refuseLocked(method, sessionID string, to mcp.InteractionState) *jsonrpc.Error {
	if i.state.CanMoveTo(to) {
		return nil
	}
	from := i.state
	i.emitLocked(InteractionEvent{Kind: EventIllegal, From: from, To: to,
		Message: fmt.Sprintf("%s would move session %s from %s to %s", method, i.key, from, to)})
	return illegalError(sessionID, from, to)
}

// emittedLocked is the answer after an event was queued (ok) or the
// interaction ended because its events were not read.
func (i *Interaction) emittedLocked(ok bool) *jsonrpc.Error {
	if ok {
		return nil
	}
	return &jsonrpc.Error{Code: mcp.CodeInternalError,
		Message: fmt.Sprintf("the client dropped session %s: its events were not read", i.key)}
}

// retireLocked forgets an ended interaction, remembering its final state
// for a while.
func (r *interactionRegistry) retireLocked(i *Interaction) {
	if r.open[i.key] != i {
		return
	}
	delete(r.open, i.key)
	if r.ended == nil {
		r.ended = make(map[string]mcp.InteractionState)
	}
	if _, seen := r.ended[i.key]; !seen {
		r.endedOrder = append(r.endedOrder, i.key)
	}
	r.ended[i.key] = i.state
	if len(r.endedOrder) > maxEndedInteractions {
		delete(r.ended, r.endedOrder[0])
		r.endedOrder = r.endedOrder[1:]
	}
}

// endInteractionsLocked ends every open interaction with an EventError
// carrying why the session ended, and drops the parked requests. Called
// from failLocked.
func (s *Session) endInteractionsLocked(err error) {
	for _, i := range s.inter.open {
		i.endLocked(mcp.InteractionError, &InteractionEvent{Kind: EventError, Err: err})
	}
	for range s.inter.parked {
		<-s.handlers
	}
	s.inter.parked = nil
}
