package ui

import (
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proxy"
)

// steerState is what the status bar shows of the session's steering, read
// from the source when something may have changed it (a refresh, a key,
// a decision) rather than at every render: a source over a socket may
// answer each question with a round trip.
type steerState struct {
	held    int
	filters []proxy.Filter
	faults  []proxy.Fault
	missed  int64
	err     error
}

// readState reads the steering state of the session.
func (a *Attach) readState() {
	a.state = steerState{
		held: len(a.src.Held()), filters: a.src.PauseFilters(), faults: a.src.Faults(),
		missed: a.src.Missed(), err: a.src.Err(),
	}
}

// facts are what the status bar says of an attach: the session and its
// state, what is paused, the pause filters and faults in force and what
// this viewer missed.
func (a *Attach) facts() []string {
	h, st := a.src.Header(), a.state
	state := "ATTACH " + h.Proxy + " ● live"
	if a.ended {
		state = "ATTACH " + h.Proxy + " ■ session ended"
		if err := st.err; err != nil {
			state += ": " + termtext.Line(err.Error())
		}
	}
	parts := []string{state}
	switch {
	case a.waiting:
		parts = append(parts, "waiting for the next session…")
	case a.nextErr != nil:
		parts = append(parts, "no next session")
	}
	if n := st.held; n > 0 {
		parts = append(parts, plural.Count(n, "message", "messages")+" paused ("+a.keys.Held.Help().Key+")")
	}
	if f := st.filters; len(f) > 0 {
		parts = append(parts, "pause on "+termtext.Line(filtersText(f)))
	}
	if rules := st.faults; len(rules) > 0 {
		parts = append(parts, "faults: "+termtext.Line(faultsText(rules)))
	}
	if n := st.missed; n > 0 {
		parts = append(parts, "missed "+plural.Count(n, "frame", "frames"))
	}
	if h.Transport != "" {
		parts = append(parts, h.Transport)
	}
	return parts
}

// faultsText says the fault rules in force, as the proxy writes them.
func faultsText(rules []proxy.Fault) string {
	parts := make([]string, len(rules))
	for i, r := range rules {
		parts[i] = r.String()
	}
	return strings.Join(parts, "; ")
}
