package ui

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/ui/bench"
)

// openBench opens the bench of the selected request (key b): the request
// mcpscope sent, repeated on the live session with its method and params
// (the _meta the session put in dropped). A replay and an attached
// session have no connection of mcpscope's own to load.
func (m *Model) openBench() tea.Cmd {
	switch {
	case m.replay != nil:
		m.status.setError(errors.New("bench needs a live connection: a replay has none"))
		return nil
	case m.attach != nil:
		m.status.setError(errors.New("bench needs a live connection of mcpscope's own: an attached session is its host's"))
		return nil
	}
	if _, err := (driver{m}).Session(); err != nil {
		m.status.setError(fmt.Errorf("bench needs a live connection: %w", err))
		return nil
	}
	f, ok := m.traffic.selected()
	if !ok {
		m.status.setError(errors.New(m.keys.Bench.Help().Key + ": no frame is selected: pick a request mcpscope sent (→)"))
		return nil
	}
	if f.Dir != capture.Out || f.Msg == nil {
		m.status.setError(bench.ErrNotARequest)
		return nil
	}
	call, err := bench.FromRequest(f.Msg)
	if err != nil {
		m.status.setError(err)
		return nil
	}
	return m.openOverlay(bench.New(driver{m}, call, m.benchRun))
}
