package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// quit ends the program. With requests in flight it first asks, in the
// hint line; asked, a second quit key goes on. It closes the connection
// (draining on MCP-Flow) and then ends the program; asked again while
// closing, it ends the program at once.
func (m *Model) quit() tea.Cmd {
	if n := m.inFlight(); n > 0 && m.quitAsked == 0 && !m.quitting {
		m.quitAsked = n
		return nil
	}
	m.quitAsked = 0
	if m.quitting || m.conn.link.Session == nil {
		return tea.Quit
	}
	m.quitting = true
	m.status.note("closing the session…")
	link := m.conn.link
	return closeCmd(link, closedMsg{})
}

// inFlight is how many requests of the session await an answer.
func (m *Model) inFlight() int {
	if s := m.conn.link.Session; s != nil && m.conn.ready {
		return s.InFlight()
	}
	return 0
}

// answerQuit reads the key pressed while quitting is asked: a quit key
// quits, esc stays (the key does nothing else), any other key stays and
// is handled as usual (handled is false).
func (m *Model) answerQuit(msg tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.quit(), true
	case key.Matches(msg, m.keys.Back):
		m.quitAsked = 0
		return nil, true
	}
	m.quitAsked = 0
	return nil, false
}

// quitQuestion is what the hint line asks while quitting is asked.
func (m *Model) quitQuestion() string {
	what := "requests"
	if m.quitAsked == 1 {
		what = "request"
	}
	return fmt.Sprintf("%d %s in flight — %s again to quit, %s to stay",
		m.quitAsked, what, m.keys.Quit.Help().Key, m.keys.Back.Help().Key)
}
