package demo

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
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
	State          mcp.InteractionState       `json:"state"`
	Step           int                        `json:"step"`
	Data           map[string]json.RawMessage `json:"data"`
	Defaults       map[string]json.RawMessage `json:"defaults,omitempty"`
	History        []mcp.InteractionTurn      `json:"history"`
	Refused        *refusal                   `json:"refused,omitempty"`
	Refusals       int                        `json:"refusals,omitempty"`
	Expired        bool                       `json:"expired,omitempty"`
	CreatedAt      int64                      `json:"createdAt"`
	LastActivityAt int64                      `json:"lastActivityAt"`
	TimeoutMs      int64                      `json:"timeoutMs"`
}

// interactionError is an error of an interaction.* method, with the
// session id as data (seed 002, "Error Response Format").
func interactionError(code int, sessionID, format string, a ...any) *jsonrpc.Error {
	return rpcError(code, map[string]string{"sessionId": sessionID}, format, a...)
}

// newSessionState starts a session of w: idle, active, then waiting for
// the first answer. initialParams become the prompts' defaults.
func newSessionState(w *wizard, p mcp.InteractionStartParams, now time.Time) (*sessionState, *jsonrpc.Error) {
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
	st := &sessionState{Tool: w.Tool, Data: map[string]json.RawMessage{}, Defaults: defaults, History: []mcp.InteractionTurn{},
		CreatedAt: ms, LastActivityAt: ms, TimeoutMs: timeout.Milliseconds()}
	for _, next := range []mcp.InteractionState{mcp.InteractionIdle, mcp.InteractionActive, mcp.InteractionWaitingUser} {
		if rerr := st.moveTo("", next); rerr != nil {
			return nil, rerr
		}
	}
	return st, nil
}

// moveTo moves the session on, or refuses a move the seed's table does
// not allow with -32003.
func (st *sessionState) moveTo(id string, next mcp.InteractionState) *jsonrpc.Error {
	if !st.State.CanMoveTo(next) {
		return interactionError(mcp.CodeInvalidStateTransition, id, "session %s cannot move from %q to %q", id, st.State, next)
	}
	st.State = next
	return nil
}

// refuseIn is the error of an operation the session's state does not
// allow: -32006 once cancelled, -32002 once expired, -32003 otherwise.
func (st *sessionState) refuseIn(id, operation string) *jsonrpc.Error {
	switch {
	case st.State == mcp.InteractionCancelled:
		return interactionError(mcp.CodeAlreadyCancelled, id, "session %s was cancelled already; cannot %s", id, operation)
	case st.Expired:
		return interactionError(mcp.CodeSessionExpired, id, "session %s expired after %d ms without activity; start a new one", id, st.TimeoutMs)
	}
	return interactionError(mcp.CodeInvalidStateTransition, id, "cannot %s: session %s is %s", operation, id, st.State)
}

// expiresAt is when the session expires without further activity.
func (st *sessionState) expiresAt() time.Time {
	return time.UnixMilli(st.LastActivityAt + st.TimeoutMs)
}

// current is the prompt awaiting an answer, or nil.
func (st *sessionState) current(w *wizard, now time.Time) *mcp.InteractionPrompt {
	if st.State != mcp.InteractionWaitingUser || st.Step >= len(w.Steps) {
		return nil
	}
	p := w.prompt(st.Step, st.Data, st.Defaults, st.Refused, now)
	return &p
}

// respond takes an answer: waiting_user → processing, then back to
// waiting_user (refused, or more steps to go) or left in processing for
// finish (the last answer). Past maxRefusals the session ends in error
// with -32004.
func (st *sessionState) respond(w *wizard, id string, resp mcp.InteractionResponse, now time.Time) (mcp.InteractionRespondResult, *jsonrpc.Error) {
	if st.State != mcp.InteractionWaitingUser {
		return mcp.InteractionRespondResult{}, st.refuseIn(id, "respond")
	}
	shown := st.current(w, now)
	if rerr := st.moveTo(id, mcp.InteractionProcessing); rerr != nil {
		return mcp.InteractionRespondResult{}, rerr
	}
	st.LastActivityAt = now.UnixMilli()
	kept, r := w.check(st.Step, shown, resp.Value, now)
	if r != nil {
		st.Refusals++
		if st.Refusals > maxRefusals {
			_ = st.moveTo(id, mcp.InteractionError)
			return mcp.InteractionRespondResult{}, interactionError(mcp.CodeValidationFailed, id,
				"session %s refused %d answers; it ends: %s", id, st.Refusals, r.Error)
		}
		st.Refused = r
		return mcp.InteractionRespondResult{Accepted: false, Validation: &mcp.InteractionValidation{Error: r.Error, Suggestion: r.Suggestion}},
			st.moveTo(id, mcp.InteractionWaitingUser)
	}
	st.Refused = nil
	promptJSON, _ := json.Marshal(shown)
	respJSON, _ := json.Marshal(mcp.InteractionResponse{Value: kept, Timestamp: resp.Timestamp, Metadata: resp.Metadata})
	st.History = append(st.History, mcp.InteractionTurn{TurnID: len(st.History), Prompt: promptJSON, Response: respJSON, Timestamp: now.UnixMilli()})
	st.Data[w.Steps[st.Step].Key] = kept
	st.Step++
	if st.Step < len(w.Steps) {
		if rerr := st.moveTo(id, mcp.InteractionWaitingUser); rerr != nil {
			return mcp.InteractionRespondResult{}, rerr
		}
	}
	return mcp.InteractionRespondResult{Accepted: true, Validation: &mcp.InteractionValidation{Valid: true}}, nil
}

// finish completes a session whose last answer is in, with the outcome
// of its wizard: processing → completed, and the params of
// interaction.complete.
func (st *sessionState) finish(id string, o wizardOutcome, result json.RawMessage) (mcp.InteractionCompleteParams, *jsonrpc.Error) {
	if rerr := st.moveTo(id, mcp.InteractionCompleted); rerr != nil {
		return mcp.InteractionCompleteParams{}, rerr
	}
	return mcp.InteractionCompleteParams{SessionID: id, Result: result, Summary: o.Summary}, nil
}

// snapshot is the answer to interaction.getState.
func (st *sessionState) snapshot(w *wizard, id string, now time.Time) mcp.InteractionStateResult {
	data, err := json.Marshal(st.Data)
	if err != nil || st.Data == nil {
		data = json.RawMessage("{}")
	}
	history := st.History
	if history == nil {
		history = []mcp.InteractionTurn{}
	}
	return mcp.InteractionStateResult{SessionID: id, State: st.State, History: history, CurrentPrompt: st.current(w, now), AccumulatedData: data,
		Metadata: mcp.InteractionMetadata{CreatedAt: st.CreatedAt, LastActivityAt: st.LastActivityAt, ToolName: st.Tool}}
}

// promptParams is the interaction.prompt of the current step.
func (st *sessionState) promptParams(w *wizard, id string, now time.Time) (mcp.InteractionPromptParams, error) {
	p := st.current(w, now)
	if p == nil {
		return mcp.InteractionPromptParams{}, fmt.Errorf("session %s awaits no answer (state %s)", id, st.State)
	}
	return mcp.InteractionPromptParams{SessionID: id, Prompt: *p, Progress: w.progress(st.Step), ExpiresAt: st.expiresAt().UnixMilli()}, nil
}
