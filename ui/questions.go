package ui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/question"
)

// askQuestion shows the server's question over the open screen; the
// question takes the keys, from the filter too.
func (m *Model) askQuestion(msg question.AskedMsg) tea.Cmd {
	o, cmd, shown, err := question.Ask(driver{m}, m.overlay, msg)
	if err != nil {
		m.status.setError(err)
	}
	if !shown {
		return nil
	}
	if m.filtering {
		m.filtering = false
		m.input.Blur()
	}
	m.setOverlay(o)
	return cmd
}

// questionEnded closes a question the server stopped waiting for.
func (m *Model) questionEnded(msg question.EndedMsg) tea.Cmd {
	o, cmd := question.Ended(m.overlay, msg)
	if o == nil && m.overlay != nil {
		m.setOverlay(nil)
	}
	return cmd
}

// openRoots opens the roots editor on the roots in force.
func (m *Model) openRoots() tea.Cmd {
	if m.cfg.Questions == nil {
		m.status.setError(errors.New(rootsFromAnswers))
		return nil
	}
	return m.openOverlay(question.OpenRoots(driver{m}, m.cfg.Questions))
}

// report shows how something the UI sent went: a note, or an error.
func (m *Model) report(note string, err error) {
	if err != nil {
		m.status.setError(err)
		return
	}
	m.status.note(note)
}
