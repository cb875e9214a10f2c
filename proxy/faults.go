package proxy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// The actions of a fault rule: what it does to a message it matches.
const (
	// FaultDelay holds the message for Fault.Delay, then carries it on.
	FaultDelay = "delay"
	// FaultDrop never carries the message on.
	FaultDrop = "drop"
	// FaultDuplicate carries the message on twice.
	FaultDuplicate = "duplicate"
	// FaultCorrupt carries on, in the message's place, its body cut to
	// its first half (trailing white space of a JSON body left out
	// first), so that it no longer parses; the framing stays whole.
	FaultCorrupt = "corrupt"
	// FaultError answers a request with Fault.Error in the proxy's name:
	// the answer goes back to the sender and the request never reaches
	// its receiver. A notification, which cannot be answered, is dropped;
	// a response never matches an error rule.
	FaultError = "error"
	// FaultCut ends the connection (Carrier.Cut). The message that
	// triggers it is not carried on.
	FaultCut = "cut"
)

// faultActions are the actions, in the order a faults file lists them.
var faultActions = []string{FaultDelay, FaultDrop, FaultDuplicate, FaultCorrupt, FaultError, FaultCut}

// Fault is one rule of a faults file (--faults) or of the TUI's faults:
// what it matches and what it does to a matching message.
//
// Every rule counts the messages it matches. It lets the first After of
// them go by untouched, then acts on the next Times (0: on every one
// after). For a cut, After is the number of matching messages carried
// before the connection is cut (with an empty Match: messages of the
// session); the next one is not carried. When several rules could act on
// a message, the first in the list does; every matching rule counts it.
type Fault struct {
	Match  Filter
	Action string         // delay, drop, duplicate, corrupt, error, cut
	Delay  time.Duration  // delay: how long
	Error  *jsonrpc.Error // error: the error the request is answered with
	After  int            // matches let go by before the rule acts
	Times  int            // how many matches it acts on; 0 is every one
}

// Check says what is wrong with f, or nil.
func (f Fault) Check() error {
	if err := f.Match.Check(); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	switch f.Action {
	case FaultDelay:
		if f.Delay <= 0 {
			return fmt.Errorf("delay %s: a delay is longer than zero", f.Delay)
		}
	case FaultError:
		if f.Error == nil {
			return errors.New("error: an error answer needs a code")
		}
	case FaultDrop, FaultDuplicate, FaultCorrupt, FaultCut:
	case "":
		return fmt.Errorf("no action: a rule does one of %s", strings.Join(faultActions, ", "))
	default:
		return fmt.Errorf("action %q: a rule does one of %s", f.Action, strings.Join(faultActions, ", "))
	}
	if f.After < 0 || f.Times < 0 {
		return fmt.Errorf("after %d, times %d: counts are zero or more", f.After, f.Times)
	}
	return nil
}

// String renders f the way the marks and the TUI say it, for example
// "delay 2s on method=tools/call tool=echo, after 3, 1 time".
func (f Fault) String() string {
	var b strings.Builder
	b.WriteString(f.Action)
	switch f.Action {
	case FaultDelay:
		fmt.Fprintf(&b, " %s", f.Delay)
	case FaultError:
		if f.Error != nil {
			fmt.Fprintf(&b, " %d %q", f.Error.Code, f.Error.Message)
		}
	}
	b.WriteString(" on ")
	b.WriteString(f.Match.String())
	if f.After > 0 {
		fmt.Fprintf(&b, ", after %d", f.After)
	}
	switch {
	case f.Times == 1:
		b.WriteString(", 1 time")
	case f.Times > 1:
		fmt.Fprintf(&b, ", %d times", f.Times)
	}
	return b.String()
}

// faultState is the fault rules in force and what they have counted.
type faultState struct {
	mu    sync.Mutex
	rules []Fault
	seen  []int // matches of each rule
	acted []int // matches each rule acted on
}

func newFaultState(rules []Fault) *faultState {
	return &faultState{rules: rules, seen: make([]int, len(rules)), acted: make([]int, len(rules))}
}

// pick counts a message going dir on every rule that matches it and
// returns the first rule that acts on it, with its index; ok is false when
// none does.
func (fs *faultState) pick(dir capture.Dir, a *about) (i int, f Fault, ok bool) {
	if fs == nil || len(fs.rules) == 0 {
		return 0, Fault{}, false
	}
	a.resolve()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	i = -1
	for k, r := range fs.rules {
		if !r.Match.Match(dir, a.method, a.tool) || (r.Action == FaultError && a.response) {
			continue
		}
		fs.seen[k]++
		if i < 0 && fs.seen[k] > r.After && (r.Times == 0 || fs.acted[k] < r.Times) {
			fs.acted[k]++
			i = k
		}
	}
	if i < 0 {
		return 0, Fault{}, false
	}
	return i, fs.rules[i], true
}

// SetFaults replaces the fault rules in force (the TUI's faults); every
// rule starts counting afresh. An invalid rule changes nothing.
func (s *Session) SetFaults(rules []Fault) error {
	if err := checkFaults(rules); err != nil {
		return err
	}
	fs := newFaultState(slices.Clone(rules))
	s.mu.Lock()
	s.faults = fs
	s.mu.Unlock()
	return nil
}

// Faults returns the fault rules in force.
func (s *Session) Faults() []Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.faults.rules)
}

// checkFaults checks every rule, naming the first bad one by its number
// (from 1).
func checkFaults(rules []Fault) error {
	for i, f := range rules {
		if err := f.Check(); err != nil {
			return fmt.Errorf("fault rule %d: %w", i+1, err)
		}
	}
	return nil
}
