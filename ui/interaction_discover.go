package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/proto"
)

// maxNotInteractive bounds the tools remembered as not interactive.
const maxNotInteractive = 4096

// discoverState is where the discovery of interactive sessions stands.
type discoverState int

const (
	discoverUnknown discoverState = iota // not asked on this connection
	discoverAsking                       // the answer is on its way
	discoverKnown                        // caps (or err) hold the answer
)

// interactivity is what the server of one connection said of interactive
// sessions (seed 002, "Capability Discovery"): asked once per connection,
// from the initialize result or with `capabilities`.
type interactivity struct {
	gen   int // the connection it was asked on
	state discoverState
	caps  proto.InteractiveCapabilities
	err   error
	// notInteractive are the tools whose interaction.start the server
	// refused with -32007 NOT_INTERACTIVE: they get the tools/call form.
	notInteractive map[string]bool
}

// interactivityMsg carries the answer of the discovery on connection gen.
type interactivityMsg struct {
	gen  int
	caps proto.InteractiveCapabilities
	err  error
}

// applyTo keeps the answer for its connection; the explorer reads it.
func (msg interactivityMsg) applyTo(m *Model) tea.Cmd {
	in := &m.interactive
	if msg.gen != m.conn.gen || in.gen != msg.gen {
		return nil
	}
	in.state, in.caps, in.err = discoverKnown, msg.caps, msg.err
	return nil
}

// interactivity returns what is known of the live connection: the
// model's record when it concerns this connection, else nothing yet.
func (d driver) interactivity() interactivity {
	if d.m.interactive.gen != d.m.conn.gen {
		return interactivity{gen: d.m.conn.gen}
	}
	return d.m.interactive
}

// liveInteractivity returns the model's record for the live connection,
// starting a fresh one after a reconnect; for the writers.
func (d driver) liveInteractivity() *interactivity {
	in := &d.m.interactive
	if in.gen != d.m.conn.gen {
		*in = interactivity{gen: d.m.conn.gen}
	}
	return in
}

// discoverInteractive asks the server, once per connection, whether it
// runs interactive sessions. nil when the answer is known or on its way,
// or when there is no session.
func (d driver) discoverInteractive() tea.Cmd {
	s, err := d.Session()
	if err != nil {
		return nil
	}
	in := d.liveInteractivity()
	if in.state != discoverUnknown {
		return nil
	}
	in.state = discoverAsking
	gen, ctx := in.gen, d.Context()
	return func() tea.Msg {
		caps, err := s.InteractiveCapabilities(ctx)
		return interactivityMsg{gen: gen, caps: caps, err: err}
	}
}

// interactive reports whether the live connection's server runs
// interactive sessions, as far as is known now.
func (d driver) interactive() bool {
	if _, err := d.Session(); err != nil {
		return false
	}
	in := d.interactivity()
	return in.state == discoverKnown && in.err == nil && in.caps.Interactive
}

// wizardFor reports whether enter on tool starts a wizard: the server is
// interactive and has not refused the tool with -32007.
func (d driver) wizardFor(tool string) bool {
	return d.interactive() && !d.interactivity().notInteractive[tool]
}

// markNotInteractive remembers that the server refused a wizard of tool.
func (d driver) markNotInteractive(tool string) {
	in := d.liveInteractivity()
	if in.notInteractive == nil {
		in.notInteractive = map[string]bool{}
	}
	if len(in.notInteractive) < maxNotInteractive {
		in.notInteractive[tool] = true
	}
}
