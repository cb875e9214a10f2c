package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/nav"
)

// wheelRows is how far one wheel notch scrolls.
const wheelRows = 3

// handleWheel scrolls the pane under the pointer.
func (m *Model) handleWheel(msg tea.MouseWheelMsg) {
	p, ok := m.layout.paneAt(msg.X, msg.Y)
	if !ok {
		return
	}
	switch msg.Button {
	case tea.MouseWheelUp:
		m.pane(p).scroll(nav.Move{Delta: -wheelRows})
	case tea.MouseWheelDown:
		m.pane(p).scroll(nav.Move{Delta: wheelRows})
	default:
		return
	}
	if p == paneTraffic {
		m.syncSelection()
	}
}

// handleClick focuses the pane under the pointer and, in the traffic and
// streams panes, selects the row clicked, in the hex pane the body item of
// the byte or line clicked; a click on the tab bar focuses that tab's pane.
func (m *Model) handleClick(msg tea.MouseClickMsg) {
	if msg.Button != tea.MouseLeft {
		return
	}
	if msg.Y == 0 {
		if p, ok := m.tabAt(msg.X); ok {
			m.setFocus(p)
		}
		return
	}
	p, ok := m.layout.paneAt(msg.X, msg.Y)
	if !ok {
		return
	}
	if p != m.focus {
		m.setFocus(p)
	}
	y := msg.Y - m.layout.body(p).y
	switch p {
	case paneTraffic:
		m.traffic.clickRow(y)
		m.syncSelection()
	case paneStreams:
		m.streams.clickRow(y)
	case paneHex:
		m.hex.click(msg.X-m.layout.body(p).x, y)
	}
}
