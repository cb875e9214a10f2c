package explore

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/proto/mcp"
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

// Discovery is what the server of the live connection said of
// interactive sessions (seed 002, "Capability Discovery"): asked once per
// connection, from the initialize result or with `capabilities`. The root
// keeps it across explorers and starts a fresh one for every connection.
type Discovery struct {
	gen   int // the connection it concerns
	state discoverState
	caps  mcp.InteractiveCapabilities
	err   error
	// notInteractive are the tools whose interaction.start the server
	// refused with -32007 NOT_INTERACTIVE: they get the tools/call form.
	notInteractive map[string]bool
	// interactiveTools are the tools whose interaction.start the server
	// accepted: they are known to run wizards.
	interactiveTools map[string]bool
}

// NewConnection forgets what the server of an earlier connection said:
// gen is the connection now live.
func (d *Discovery) NewConnection(gen int) { *d = Discovery{gen: gen} }

// DiscoveredMsg carries the answer of the discovery on connection gen.
type DiscoveredMsg struct {
	gen  int
	caps mcp.InteractiveCapabilities
	err  error
}

// Apply keeps the answer when it concerns the live connection; the
// explorer reads it.
func (d *Discovery) Apply(msg DiscoveredMsg) {
	if msg.gen != d.gen {
		return
	}
	d.state, d.caps, d.err = discoverKnown, msg.caps, msg.err
}

// discoverInteractive asks the server, once per connection, whether it
// runs interactive sessions. nil when the answer is known or on its way,
// or when there is no session.
func (x *Explorer) discoverInteractive() tea.Cmd {
	s, err := x.d.Session()
	if err != nil {
		return nil
	}
	in := x.disc
	if in.state != discoverUnknown {
		return nil
	}
	in.state = discoverAsking
	gen, ctx := in.gen, x.d.Context()
	return func() tea.Msg {
		caps, err := s.InteractiveCapabilities(ctx)
		return DiscoveredMsg{gen: gen, caps: caps, err: err}
	}
}

// interactive reports whether the live connection's server runs
// interactive sessions, as far as is known now.
func (x *Explorer) interactive() bool {
	if _, err := x.d.Session(); err != nil {
		return false
	}
	in := x.disc
	return in.state == discoverKnown && in.err == nil && in.caps.Interactive
}

// wizardFor reports whether enter on tool starts a wizard: the server is
// interactive and has not refused the tool with -32007.
func (x *Explorer) wizardFor(tool string) bool {
	return x.interactive() && !x.disc.notInteractive[tool]
}

// markNotInteractive remembers that the server refused a wizard of tool.
func (x *Explorer) markNotInteractive(tool string) {
	remember(&x.disc.notInteractive, tool)
}

// markInteractive remembers that the server started a wizard of tool.
func (x *Explorer) markInteractive(tool string) {
	remember(&x.disc.interactiveTools, tool)
}

// remember adds tool to a bounded set.
func remember(set *map[string]bool, tool string) {
	if *set == nil {
		*set = map[string]bool{}
	}
	if len(*set) < maxNotInteractive {
		(*set)[tool] = true
	}
}
