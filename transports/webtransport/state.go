package webtransport

import (
	"sync"
	"time"
)

// State is where an MCP-Flow connection stands (seed 000 §1).
type State uint8

// States of the connection state machine.
const (
	StateClosed              State = iota // no session
	StateConnected                        // the WebTransport session is established
	StateControlStreamOpened              // the client opened the control stream
	StateInitializing                     // the initialize request was sent
	StateReady                            // the initialize result arrived; the encoding is negotiated
)

// String names the state as the seed does: "CLOSED", "CONNECTED", …
func (s State) String() string {
	switch s {
	case StateClosed:
		return "CLOSED"
	case StateConnected:
		return "CONNECTED"
	case StateControlStreamOpened:
		return "CONTROL_STREAM_OPENED"
	case StateInitializing:
		return "INITIALIZING"
	case StateReady:
		return "READY"
	}
	return "UNKNOWN"
}

// Transition is one change of State.
type Transition struct {
	From, To State
	At       time.Time
	Reason   string // what caused it, e.g. "initialize result (encoding cbor)"
}

// maxHistory bounds the transitions kept; a connection makes at most five.
const maxHistory = 16

// stateMachine holds the state, its history and the observer.
type stateMachine struct {
	mu      sync.Mutex
	state   State
	history []Transition
	observe func(Transition)
}

// get returns the current state.
func (m *stateMachine) get() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// move goes to state to, unless already there; from, when not nil, says
// which states the move is allowed from. It reports whether it moved.
func (m *stateMachine) move(to State, reason string, from ...State) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == to {
		return false
	}
	if len(from) > 0 {
		ok := false
		for _, f := range from {
			ok = ok || f == m.state
		}
		if !ok {
			return false
		}
	}
	tr := Transition{From: m.state, To: to, At: time.Now(), Reason: reason}
	m.state = to
	if len(m.history) < maxHistory {
		m.history = append(m.history, tr)
	}
	if m.observe != nil {
		m.observe(tr) // under the lock, so observers see transitions in order
	}
	return true
}

// transitions returns a copy of the history.
func (m *stateMachine) transitions() []Transition {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Transition(nil), m.history...)
}
