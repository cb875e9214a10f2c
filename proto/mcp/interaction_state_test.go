package mcp

import "testing"

// allStates are the seven states, plus "" (no session yet) as a source.
var allStates = []InteractionState{
	"", InteractionIdle, InteractionActive, InteractionWaitingUser, InteractionProcessing,
	InteractionCompleted, InteractionCancelled, InteractionError,
}

// TestCanMoveToTable checks every pair of states against the seed's "State
// Transitions" table, plus the documented idle → waiting_user shortcut.
func TestCanMoveToTable(t *testing.T) {
	type pair struct{ from, to InteractionState }
	allowed := map[pair]bool{
		{"", InteractionIdle}:                           true,
		{InteractionIdle, InteractionActive}:            true,
		{InteractionIdle, InteractionWaitingUser}:       true, // implied "active" step
		{InteractionActive, InteractionWaitingUser}:     true,
		{InteractionWaitingUser, InteractionProcessing}: true,
		{InteractionProcessing, InteractionWaitingUser}: true,
		{InteractionProcessing, InteractionCompleted}:   true,
	}
	for _, from := range []InteractionState{InteractionIdle, InteractionActive, InteractionWaitingUser, InteractionProcessing} {
		allowed[pair{from, InteractionCancelled}] = true
		allowed[pair{from, InteractionError}] = true
	}
	n := 0
	for _, from := range allStates {
		for _, to := range allStates {
			if got, want := from.CanMoveTo(to), allowed[pair{from, to}]; got != want {
				t.Errorf("%q.CanMoveTo(%q) = %v, want %v", from, to, got, want)
			}
			n++
		}
	}
	if n != 64 {
		t.Fatalf("checked %d pairs, want 64", n)
	}
	for _, s := range []InteractionState{"bogus", "IDLE"} {
		for _, other := range allStates {
			if s.CanMoveTo(other) || other.CanMoveTo(s) {
				t.Errorf("unknown state %q moves to or from %q", s, other)
			}
		}
	}
}

// TestTerminal: exactly completed, cancelled and error are terminal.
func TestTerminal(t *testing.T) {
	for _, s := range allStates {
		want := s == InteractionCompleted || s == InteractionCancelled || s == InteractionError
		if s.Terminal() != want {
			t.Errorf("%q.Terminal() = %v, want %v", s, s.Terminal(), want)
		}
	}
}
