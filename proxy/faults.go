package proxy

import (
	"context"
	"errors"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Fault is one rule of a faults file (--faults) or of the TUI's faults:
// what it matches and what it does to a matching message.
type Fault struct {
	Match  Filter
	Action string         // delay, drop, duplicate, corrupt, error, cut
	Delay  time.Duration  // delay: how long
	Error  *jsonrpc.Error // error: the error the request is answered with
	After  int            // cut: after this many messages of the session; others: skip the first After matches
	Times  int            // how many matches it acts on; 0 is every one
}

// faultState is the fault rules in force and what they have counted.
type faultState struct{ rules []Fault }

func newFaultState(rules []Fault) *faultState { return &faultState{rules: rules} }

// apply lets the first fault rule matching h act on it. done says h was
// dealt with (dropped, answered, corrupted, cut) and Relay carries
// nothing more; otherwise Relay goes on (after a delay, or the first copy
// of a duplicate).
func (fs *faultState) apply(ctx context.Context, s *Session, h Hop, seq uint64, a about, c Carrier) (done bool, err error) {
	return false, nil
}

// LoadFaults reads a faults file (YAML or JSON).
func LoadFaults(path string) ([]Fault, error) {
	return nil, errors.New("faults files are not read yet")
}

// SetFaults replaces the fault rules in force (the TUI's faults).
func (s *Session) SetFaults(rules []Fault) error {
	return nil
}

// Faults returns the fault rules in force.
func (s *Session) Faults() []Fault { return nil }
