package demo

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// Session limits (seed 002, "Rate Limiting").
const (
	// DefaultInteractionTimeout is the inactivity after which a session
	// expires when interaction.start names no timeout.
	DefaultInteractionTimeout = 5 * time.Minute
	maxInteractionTimeout     = 24 * time.Hour
	maxRefusals               = 20 // refused answers before the session ends in error
)

// sessionState is the whole state of one session. A stateful session keeps
// it in memory; the stateless wizard carries it in the signed token.
type sessionState struct {
	Tool           string                     `json:"tool"`
	State          proto.InteractionState     `json:"state"`
	Step           int                        `json:"step"`
	Data           map[string]json.RawMessage `json:"data"`
	Defaults       map[string]json.RawMessage `json:"defaults,omitempty"`
	History        []proto.InteractionTurn    `json:"history"`
	Refused        *refusal                   `json:"refused,omitempty"`
	Refusals       int                        `json:"refusals,omitempty"`
	Expired        bool                       `json:"expired,omitempty"`
	CreatedAt      int64                      `json:"createdAt"`
	LastActivityAt int64                      `json:"lastActivityAt"`
	TimeoutMs      int64                      `json:"timeoutMs"`
}

// interactionError is an error of an interaction.* method, with the
// session id as data (seed 002, "Error Response Format").
func interactionError(code int, sessionID, format string, a ...any) *proto.Error {
	return rpcError(code, map[string]string{"sessionId": sessionID}, format, a...)
}

// newSessionState starts a session of w: idle, active, then waiting for
// the first answer. initialParams become the prompts' defaults.
func newSessionState(w *wizard, p proto.InteractionStartParams, now time.Time) (*sessionState, *proto.Error) {
	timeout := DefaultInteractionTimeout
	if p.Timeout < 0 || time.Duration(p.Timeout)*time.Millisecond > maxInteractionTimeout {
		return nil, invalidParams("timeout must be between 1 and %d ms, got %d", maxInteractionTimeout.Milliseconds(), p.Timeout)
	} else if p.Timeout > 0 {
		timeout = time.Duration(p.Timeout) * time.Millisecond
	}
	var given map[string]json.RawMessage
	if len(p.InitialParams) > 0 && string(p.InitialParams) != "null" {
		if err := json.Unmarshal(p.InitialParams, &given); err != nil {
			return nil, invalidParams("initialParams must be an object of answers by step: %v", err)
		}
	}
	defaults, _, err := w.checkAnswers(given, now)
	if err != nil {
		return nil, invalidParams("initialParams: %v", err)
	}
	ms := now.UnixMilli()
	st := &sessionState{Tool: w.Tool, Data: map[string]json.RawMessage{}, Defaults: defaults, History: []proto.InteractionTurn{},
		CreatedAt: ms, LastActivityAt: ms, TimeoutMs: timeout.Milliseconds()}
	for _, next := range []proto.InteractionState{proto.InteractionIdle, proto.InteractionActive, proto.InteractionWaitingUser} {
		if rerr := st.moveTo("", next); rerr != nil {
			return nil, rerr
		}
	}
	return st, nil
}

// moveTo moves the session on, or refuses a move the seed's table does
// not allow with -32003.
func (st *sessionState) moveTo(id string, next proto.InteractionState) *proto.Error {
	if !st.State.CanMoveTo(next) {
		return interactionError(proto.CodeInvalidStateTransition, id, "session %s cannot move from %q to %q", id, st.State, next)
	}
	st.State = next
	return nil
}

// refuseIn is the error of an operation the session's state does not
// allow: -32006 once cancelled, -32002 once expired, -32003 otherwise.
func (st *sessionState) refuseIn(id, operation string) *proto.Error {
	switch {
	case st.State == proto.InteractionCancelled:
		return interactionError(proto.CodeAlreadyCancelled, id, "session %s was cancelled already; cannot %s", id, operation)
	case st.Expired:
		return interactionError(proto.CodeSessionExpired, id, "session %s expired after %d ms without activity; start a new one", id, st.TimeoutMs)
	}
	return interactionError(proto.CodeInvalidStateTransition, id, "cannot %s: session %s is %s", operation, id, st.State)
}

// expiresAt is when the session expires without further activity.
func (st *sessionState) expiresAt() time.Time {
	return time.UnixMilli(st.LastActivityAt + st.TimeoutMs)
}

// current is the prompt awaiting an answer, or nil.
func (st *sessionState) current(w *wizard, now time.Time) *proto.InteractionPrompt {
	if st.State != proto.InteractionWaitingUser || st.Step >= len(w.Steps) {
		return nil
	}
	p := w.prompt(st.Step, st.Data, st.Defaults, st.Refused, now)
	return &p
}

// respond takes an answer: waiting_user → processing, then back to
// waiting_user (refused, or more steps to go) or left in processing for
// finish (the last answer). Past maxRefusals the session ends in error
// with -32004.
func (st *sessionState) respond(w *wizard, id string, resp proto.InteractionResponse, now time.Time) (proto.InteractionRespondResult, *proto.Error) {
	if st.State != proto.InteractionWaitingUser {
		return proto.InteractionRespondResult{}, st.refuseIn(id, "respond")
	}
	shown := st.current(w, now)
	if rerr := st.moveTo(id, proto.InteractionProcessing); rerr != nil {
		return proto.InteractionRespondResult{}, rerr
	}
	st.LastActivityAt = now.UnixMilli()
	kept, r := w.check(st.Step, shown, resp.Value, now)
	if r != nil {
		st.Refusals++
		if st.Refusals > maxRefusals {
			_ = st.moveTo(id, proto.InteractionError)
			return proto.InteractionRespondResult{}, interactionError(proto.CodeValidationFailed, id,
				"session %s refused %d answers; it ends: %s", id, st.Refusals, r.Error)
		}
		st.Refused = r
		return proto.InteractionRespondResult{Accepted: false, Validation: &proto.InteractionValidation{Error: r.Error, Suggestion: r.Suggestion}},
			st.moveTo(id, proto.InteractionWaitingUser)
	}
	st.Refused = nil
	promptJSON, _ := json.Marshal(shown)
	respJSON, _ := json.Marshal(proto.InteractionResponse{Value: kept, Timestamp: resp.Timestamp, Metadata: resp.Metadata})
	st.History = append(st.History, proto.InteractionTurn{TurnID: len(st.History), Prompt: promptJSON, Response: respJSON, Timestamp: now.UnixMilli()})
	st.Data[w.Steps[st.Step].Key] = kept
	st.Step++
	if st.Step < len(w.Steps) {
		if rerr := st.moveTo(id, proto.InteractionWaitingUser); rerr != nil {
			return proto.InteractionRespondResult{}, rerr
		}
	}
	return proto.InteractionRespondResult{Accepted: true, Validation: &proto.InteractionValidation{Valid: true}}, nil
}

// finish completes a session whose last answer is in, with the outcome
// of its wizard: processing → completed, and the params of
// interaction.complete.
func (st *sessionState) finish(id string, o wizardOutcome, result json.RawMessage) (proto.InteractionCompleteParams, *proto.Error) {
	if rerr := st.moveTo(id, proto.InteractionCompleted); rerr != nil {
		return proto.InteractionCompleteParams{}, rerr
	}
	return proto.InteractionCompleteParams{SessionID: id, Result: result, Summary: o.Summary}, nil
}

// snapshot is the answer to interaction.getState.
func (st *sessionState) snapshot(w *wizard, id string, now time.Time) proto.InteractionStateResult {
	data, err := json.Marshal(st.Data)
	if err != nil || st.Data == nil {
		data = json.RawMessage("{}")
	}
	history := st.History
	if history == nil {
		history = []proto.InteractionTurn{}
	}
	return proto.InteractionStateResult{SessionID: id, State: st.State, History: history, CurrentPrompt: st.current(w, now), AccumulatedData: data,
		Metadata: proto.InteractionMetadata{CreatedAt: st.CreatedAt, LastActivityAt: st.LastActivityAt, ToolName: st.Tool}}
}

// promptParams is the interaction.prompt of the current step.
func (st *sessionState) promptParams(w *wizard, id string, now time.Time) (proto.InteractionPromptParams, error) {
	p := st.current(w, now)
	if p == nil {
		return proto.InteractionPromptParams{}, fmt.Errorf("session %s awaits no answer (state %s)", id, st.State)
	}
	return proto.InteractionPromptParams{SessionID: id, Prompt: *p, Progress: w.progress(st.Step), ExpiresAt: st.expiresAt().UnixMilli()}, nil
}
