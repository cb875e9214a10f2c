package mcp

// InteractionState is the state of an interactive session (seed 002,
// "Session Lifecycle").
type InteractionState string

// States of an interactive session.
const (
	InteractionIdle        InteractionState = "idle"
	InteractionActive      InteractionState = "active"
	InteractionWaitingUser InteractionState = "waiting_user"
	InteractionProcessing  InteractionState = "processing"
	InteractionCompleted   InteractionState = "completed"
	InteractionCancelled   InteractionState = "cancelled"
	InteractionError       InteractionState = "error"
)

// Terminal reports whether no transition leaves s: completed, cancelled and
// error.
func (s InteractionState) Terminal() bool {
	switch s {
	case InteractionCompleted, InteractionCancelled, InteractionError:
		return true
	}
	return false
}

// known reports whether s is one of the seven states.
func (s InteractionState) known() bool {
	switch s {
	case InteractionIdle, InteractionActive, InteractionWaitingUser,
		InteractionProcessing, InteractionCompleted, InteractionCancelled,
		InteractionError:
		return true
	}
	return false
}

// CanMoveTo reports whether the seed's "State Transitions" table allows s →
// next: "" (no session yet) → idle; idle → active; active → waiting_user;
// waiting_user → processing; processing → waiting_user; processing →
// completed; any non-terminal state → cancelled or error. It also allows
// idle → waiting_user, the implied "active" step of a server whose start
// result carries an initialPrompt. Nothing leaves a terminal state, and an
// unknown state neither moves nor is reached.
func (s InteractionState) CanMoveTo(next InteractionState) bool {
	if s == "" {
		return next == InteractionIdle
	}
	if !s.known() || s.Terminal() || !next.known() {
		return false
	}
	switch next {
	case InteractionCancelled, InteractionError:
		return true
	case InteractionActive:
		return s == InteractionIdle
	case InteractionWaitingUser:
		return s == InteractionIdle || s == InteractionActive || s == InteractionProcessing
	case InteractionProcessing:
		return s == InteractionWaitingUser
	case InteractionCompleted:
		return s == InteractionProcessing
	}
	return false
}
