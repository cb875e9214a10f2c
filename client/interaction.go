package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// interactionEventQueue bounds the events of one Interaction nobody reads;
// one more slot is kept for the event that ends it.
const interactionEventQueue = 256

// InteractionEventKind says what an InteractionEvent reports.
type InteractionEventKind int

// Kinds of InteractionEvent.
const (
	// EventPrompt: the server asks the user (interaction.prompt, or the
	// start result's initialPrompt, delivered first). Prompt is set.
	EventPrompt InteractionEventKind = iota + 1
	// EventContinue: interaction.continue. Prompt is its nextPrompt when it
	// carries one (the user answers it as any prompt); without one it is
	// progress or a timeout warning (Message, ExpiresAt).
	EventContinue
	// EventComplete: interaction.complete; Complete is set. The last event.
	EventComplete
	// EventIllegal: the server asked for a transition seed 002 does not
	// allow; From and To name it, Message says which request. The server
	// got error -32003 and the state did not change.
	EventIllegal
	// EventError: the interaction ended in error (the session ended, the
	// events were not read in time, or the server said the session expired
	// or is gone); Err says why. The last event.
	EventError
)

// String names the kind: "prompt", "continue", "complete", "illegal", "error".
func (k InteractionEventKind) String() string {
	switch k {
	case EventPrompt:
		return "prompt"
	case EventContinue:
		return "continue"
	case EventComplete:
		return "complete"
	case EventIllegal:
		return "illegal"
	case EventError:
		return "error"
	}
	return fmt.Sprintf("event kind %d", int(k))
}

// InteractionEvent is one thing the server did in an interactive session.
type InteractionEvent struct {
	Kind      InteractionEventKind
	Prompt    *mcp.InteractionPrompt // EventPrompt; EventContinue with a nextPrompt
	Progress  *mcp.InteractionProgress
	Message   string                         // continue message, timeout warning, or what was illegal
	ExpiresAt time.Time                      // the latest expiry the server announced; zero when unknown
	Complete  *mcp.InteractionCompleteParams // EventComplete
	From, To  mcp.InteractionState           // EventIllegal: the refused transition
	Err       error                          // EventError
}

// Interaction is one interactive session (seed 002) started with
// Session.StartInteraction. It is safe for concurrent use; its state lives
// under the session's mutex, so the session's reader and the caller see
// one order of events.
type Interaction struct {
	s    *Session
	key  string // routing key: the token's inner sessionId, or the id itself
	tool string

	// Guarded by s.mu.
	id        string // the sessionId to send: for a stateless server, its newest token
	state     mcp.InteractionState
	prompt    *mcp.InteractionPrompt
	seq       uint64                     // counts prompts, so a late refusal is not applied to a newer one
	refusal   *mcp.InteractionValidation // why the answer to prompt was refused
	expiresAt time.Time
	events    chan InteractionEvent
	closed    bool
}

// ID returns the session's id as the server last sent it. A stateless
// server's id is a signed token that changes as the session advances
// (mcp.DecodeSessionToken shows it); the Interaction follows it.
func (i *Interaction) ID() string {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.id
}

// ToolName returns the tool the session runs.
func (i *Interaction) ToolName() string { return i.tool }

// State returns the session's state as the client has seen it.
func (i *Interaction) State() mcp.InteractionState {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.state
}

// ExpiresAt returns the latest expiry the server announced (start result,
// prompt or continue expiresAt); zero when none was.
func (i *Interaction) ExpiresAt() time.Time {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.expiresAt
}

// Prompt returns a copy of the prompt the user is answering, nil before the
// first. After a refused answer (accepted:false) and until the server sends
// another prompt, its Error and Suggestion are the refusal's when the
// prompt has none of its own, so the prompt can be shown again as is. No
// event is made up for a refusal: a server that re-sends the prompt (as the
// seed's "Validation Retry" does) produces the EventPrompt itself.
func (i *Interaction) Prompt() *mcp.InteractionPrompt {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if i.prompt == nil {
		return nil
	}
	p := *i.prompt
	if r := i.refusal; r != nil && p.Error == "" && p.Suggestion == "" {
		p.Error, p.Suggestion = r.Error, r.Suggestion
	}
	return &p
}

// Events delivers what the server does, in order: prompts, continues, the
// completion, illegal transitions and errors. It is closed after the
// terminal event, after Cancel, or when the session ends. The session
// never waits for the reader: past interactionEventQueue unread events the
// interaction ends in error.
func (i *Interaction) Events() <-chan InteractionEvent { return i.events }

// Respond answers the current prompt with value (interaction.respond; the
// timestamp is now). The state goes waiting_user → processing; a refused
// answer (accepted:false) puts it back to waiting_user with Prompt carrying
// the refusal, and the user answers again. A JSON-RPC error is the
// *RPCError of the call (named in mcp.DialectInteraction): session not
// found or expired ends the interaction in error, any other puts the
// state back to waiting_user. opts are the call's options (WithRounds
// tells the request's id, for Session.Cancel).
func (i *Interaction) Respond(ctx context.Context, value json.RawMessage, opts ...CallOption) (mcp.InteractionRespondResult, error) {
	s := i.s
	s.mu.Lock()
	if i.state != mcp.InteractionWaitingUser {
		st := i.state
		s.mu.Unlock()
		return mcp.InteractionRespondResult{}, fmt.Errorf("session %s is %s, not waiting for an answer", i.key, st)
	}
	i.state = mcp.InteractionProcessing
	seq, id := i.seq, i.id
	s.mu.Unlock()

	params := mcp.InteractionRespondParams{SessionID: id, Response: mcp.InteractionResponse{
		Value: value, Timestamp: time.Now().UnixMilli(),
	}}
	raw, err := s.Call(ctx, mcp.MethodInteractionRespond, params, opts...)
	var res mcp.InteractionRespondResult
	if err == nil {
		if jerr := json.Unmarshal(raw, &res); jerr != nil {
			err = &ProtocolError{Msg: fmt.Sprintf("the %s result is malformed: %v", mcp.MethodInteractionRespond, jerr)}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		i.respondFailedLocked(seq, err)
		return mcp.InteractionRespondResult{}, err
	}
	if !res.Accepted && i.seq == seq && i.state == mcp.InteractionProcessing {
		i.state = mcp.InteractionWaitingUser
		i.refusal = &mcp.InteractionValidation{}
		if res.Validation != nil {
			i.refusal = res.Validation
		}
	}
	return res, nil
}

// respondFailedLocked settles the state after interaction.respond failed.
func (i *Interaction) respondFailedLocked(seq uint64, err error) {
	var rpcErr *RPCError
	if errors.As(err, &rpcErr) {
		switch rpcErr.Err.Code {
		case mcp.CodeSessionNotFound, mcp.CodeSessionExpired, mcp.CodeAlreadyCancelled:
			i.endLocked(mcp.InteractionError, &InteractionEvent{Kind: EventError, Err: err})
			return
		}
	}
	if i.seq == seq && i.state == mcp.InteractionProcessing {
		i.state = mcp.InteractionWaitingUser
	}
}

// Cancel ends the session (interaction.cancel with reason): the state is
// cancelled and Events is closed at once, whatever the server answers; its
// error, if any, is returned.
func (i *Interaction) Cancel(ctx context.Context, reason string) error {
	s := i.s
	s.mu.Lock()
	if i.state.Terminal() {
		st := i.state
		s.mu.Unlock()
		return fmt.Errorf("session %s is already %s", i.key, st)
	}
	id := i.id
	i.endLocked(mcp.InteractionCancelled, nil)
	s.mu.Unlock()

	raw, err := s.Call(ctx, mcp.MethodInteractionCancel, mcp.InteractionCancelParams{SessionID: id, Reason: reason})
	if err != nil {
		return err
	}
	var res mcp.InteractionCancelResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return &ProtocolError{Msg: fmt.Sprintf("the %s result is malformed: %v", mcp.MethodInteractionCancel, err)}
	}
	if !res.Cancelled {
		return fmt.Errorf("the server answered cancelled:false for session %s", i.key)
	}
	return nil
}

// GetState asks the server for the session's state (interaction.getState).
// It does not change the client's view (State).
func (i *Interaction) GetState(ctx context.Context) (mcp.InteractionStateResult, error) {
	raw, err := i.s.Call(ctx, mcp.MethodInteractionGetState, mcp.InteractionGetStateParams{SessionID: i.ID()})
	if err != nil {
		return mcp.InteractionStateResult{}, err
	}
	var res mcp.InteractionStateResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return res, &ProtocolError{Msg: fmt.Sprintf("the %s result is malformed: %v", mcp.MethodInteractionGetState, err)}
	}
	return res, nil
}

// emitLocked queues a non-terminal event. When the reader is too far
// behind, the interaction ends in error instead and emitLocked reports
// false.
func (i *Interaction) emitLocked(ev InteractionEvent) bool {
	if i.closed {
		return false
	}
	if len(i.events) >= interactionEventQueue {
		i.endLocked(mcp.InteractionError, &InteractionEvent{Kind: EventError,
			Err: fmt.Errorf("session %s ended: %d events were not read", i.key, interactionEventQueue)})
		return false
	}
	ev.ExpiresAt = i.expiresAt
	i.events <- ev
	return true
}

// endLocked moves to the terminal state st, queues ev (nil: none) in the
// slot kept for it, closes Events and retires the interaction.
func (i *Interaction) endLocked(st mcp.InteractionState, ev *InteractionEvent) {
	if i.closed {
		return
	}
	i.state = st
	if ev != nil {
		ev.ExpiresAt = i.expiresAt
		i.events <- *ev
	}
	i.closed = true
	close(i.events)
	i.s.inter.retireLocked(i)
}

// noteExpiryLocked records an expiresAt (ms since the epoch; 0: none).
func (i *Interaction) noteExpiryLocked(ms int64) {
	if ms > 0 {
		i.expiresAt = time.UnixMilli(ms)
	}
}
