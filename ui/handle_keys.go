package ui

import (
	"errors"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/serverinfo"
)

// handleKey routes a key: to the filter input while it is open, then the
// global keys, then the focused pane's navigation.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.helpKey(msg, m.filtering) {
		return nil
	}
	if m.filtering {
		return m.handleFilterKey(msg)
	}
	k := m.keys
	for p, b := range k.Panes {
		if key.Matches(msg, b) {
			m.jumpTo(paneID(p))
			return nil
		}
	}
	if why := m.keyOff(msg); why != "" {
		m.status.setError(errors.New(why))
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.NextPane):
		m.setFocus(m.panes.step(m.focus, 1))
	case key.Matches(msg, k.PrevPane):
		m.setFocus(m.panes.step(m.focus, -1))
	case key.Matches(msg, k.Back):
		return m.back()
	case key.Matches(msg, k.Detail):
		m.openDetail()
	case key.Matches(msg, k.Hex):
		m.setFocus(paneHex)
	case key.Matches(msg, k.Follow):
		m.traffic.follow = !m.traffic.follow
		m.traffic.sync()
		m.syncSelection()
	case key.Matches(msg, k.Link):
		m.nextLinked()
	case key.Matches(msg, k.Filter): // a new filter; the one in force stays until enter
		m.filtering = true
		m.input.SetValue("")
		return m.input.Focus()
	case key.Matches(msg, k.Cancel):
		return m.cancelSelected()
	case key.Matches(msg, k.Copy):
		return m.copySelected()
	case key.Matches(msg, k.Save):
		return m.askSavePath()
	case key.Matches(msg, k.SaveContent):
		return m.askSaveContent()
	case key.Matches(msg, k.Reconnect):
		return m.reconnect()
	case key.Matches(msg, k.ListTools):
		return m.send(ListTools)
	case key.Matches(msg, k.ReadFile):
		return m.send(ReadFile)
	case key.Matches(msg, k.Analyze):
		return m.send(Analyze)
	case key.Matches(msg, k.Tone):
		return m.send(Tone)
	case key.Matches(msg, k.Explore):
		return m.openExplorer()
	case key.Matches(msg, k.Compose):
		return m.openComposer()
	case key.Matches(msg, k.Bench):
		return m.openBench()
	case key.Matches(msg, k.Roots):
		return m.openRoots()
	case key.Matches(msg, k.Tasks):
		return m.openTasks()
	case key.Matches(msg, k.Subscriptions):
		return m.openSubscriptions()
	case key.Matches(msg, k.Logs):
		return m.openLogs()
	case key.Matches(msg, k.Findings):
		return m.openFindings()
	case key.Matches(msg, k.Server):
		return m.openOverlay(serverinfo.Open(driver{m}).WithRecording(m.cfg.Recording))
	default:
		handled := m.pane(m.focus).HandleKey(msg, k)
		switch {
		case handled && m.focus == paneTraffic:
			m.syncSelection()
		case !handled && msg.Text != "": // a typed key no pane takes: never swallowed
			m.status.setError(fmt.Errorf("%s is not a key of the panes: %s lists them", msg.String(), k.Help.Help().Key))
		}
	}
	return nil
}

// handleFilterKey edits the filter (or the file name the save key asks
// for): enter applies it, esc closes the input without changing the
// filter in force.
func (m *Model) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "ctrl+c":
		return m.quit()
	case "enter":
		asked := m.asked
		saving := m.closeInput()
		if asked != nil {
			return asked(m.input.Value())
		}
		if saving {
			return m.save(m.input.Value())
		}
		return m.applyFilter(m.input.Value())
	case "esc":
		m.closeInput()
		return nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

// filterText is the filter in force, or "".
func (m *Model) filterText() string {
	if m.idx.filter == nil {
		return ""
	}
	return m.idx.filter.fl.text
}

// back closes what esc closes: a filter in force, else the detail or hex
// pane (focus returns to the traffic pane).
func (m *Model) back() tea.Cmd {
	switch {
	case m.idx.filter != nil:
		return m.applyFilter("")
	case m.focus != paneTraffic:
		m.setFocus(paneTraffic)
	}
	return nil
}

// openDetail shows the detail of the selection; on a stream row (an
// execution stream's or an SSE stream's) it first selects the stream's
// first frame in the traffic pane.
func (m *Model) openDetail() {
	if m.focus == paneStreams {
		if seq := m.streams.firstSeq(); seq > 0 {
			m.traffic.selectSeq(seq)
		}
	}
	m.setFocus(paneDetail)
}

// nextLinked selects the next frame of the selected frame's call (request,
// response, its execution streams and datagrams, and the frames of the
// task it started) among the rows the traffic shows, wrapping around.
func (m *Model) nextLinked() {
	f, ok := m.traffic.selected()
	if !ok {
		m.status.setError(errors.New(m.keys.Link.Help().Key + ": no frame is selected"))
		return
	}
	linked := m.idx.linkedFrames(f)
	if len(linked) < 2 {
		m.status.note("this frame has no linked frames")
		return
	}
	seqs := make([]uint64, 0, len(linked))
	for _, s := range linked {
		if s == f.Seq || m.traffic.shows(s) {
			seqs = append(seqs, s)
		}
	}
	if len(seqs) < 2 {
		m.status.note("the frames linked to this one are hidden by the filter: esc clears it")
		return
	}
	next := seqs[0]
	for _, s := range seqs {
		if s > f.Seq {
			next = s
			break
		}
	}
	m.traffic.selectSeq(next)
	m.syncSelection()
	if g, ok := m.traffic.selected(); ok {
		m.status.note("linked frame: " + g.Chan.String())
	}
}
