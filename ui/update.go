package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/contentsave"
	"github.com/mcpscope/mcpscope/ui/explore"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/question"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// filterStepMsg asks for the next step of a filter's backfill.
type filterStepMsg struct{ gen int }

// Update routes a message to the part of the model it concerns.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.hold = false
	if _, ok := msg.(tea.KeyPressMsg); ok {
		m.status.clear(m.conn.failure, m.conn.ended)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.quitAsked > 0 {
		if cmd, handled := m.answerQuit(k); handled {
			return m, tea.Batch(cmd, m.judgeVerdicts())
		}
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.overlay != nil && k.String() != "ctrl+c" {
		return m, tea.Batch(m.screenKey(k), m.judgeVerdicts()) // a report the detail asked for
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.setSize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		m.setStyles(msg.IsDark(), m.styles.Plain)
	case tea.ColorProfileMsg:
		m.setStyles(m.styles.Dark, look.Colorless(msg.Profile))
	case refreshMsg, passMsg:
		if cmd = tea.Batch(m.refresh(msg), m.judgeVerdicts()); m.hold {
			return m, cmd // a slice of a pass: the screen and the open screen wait for the pass
		}
	case toolVerdictMsg:
		cmd = m.verdictArrived(msg)
	case tea.KeyPressMsg:
		cmd = m.handleKey(msg)
	case tea.MouseWheelMsg:
		m.handleWheel(msg)
	case tea.MouseClickMsg:
		m.handleClick(msg)
	case connectedMsg:
		cmd = m.connected(msg)
	case linkDownMsg:
		m.linkDown(msg)
	case diagnosedMsg:
		cmd = m.diagnosed(msg)
	case AuthStepsMsg:
		cmd = m.authSteps(msg)
	case screen.CallDoneMsg:
		m.report(msg.Report())
	case cancelDoneMsg:
		m.cancelDone(msg)
	case filterStepMsg:
		cmd = m.filterStep(msg)
	case ErrorMsg:
		m.status.setError(msg.Err)
	case savedMsg:
		m.saved(msg)
	case contentsave.SavedMsg:
		m.report(msg.Report())
	case closedMsg:
		return m, tea.Quit
	case explore.DiscoveredMsg:
		m.interactive.Apply(msg)
	case question.AskedMsg:
		cmd = m.askQuestion(msg)
	case question.EndedMsg:
		cmd = m.questionEnded(msg)
	case question.RootsSentMsg:
		m.report(msg.Report())
	}
	if _, key := msg.(tea.KeyPressMsg); !key && m.overlay != nil {
		cmd = tea.Batch(cmd, m.updateOverlay(msg))
	}
	if pics := m.updatePictures(msg); pics != nil {
		cmd = tea.Batch(cmd, pics)
	}
	return m, tea.Batch(cmd, m.judgeVerdicts()) // a report the detail asked for
}

// applyFilter shows only the frames matching text (all frames for an
// empty text) and starts reading the older frames for matches in steps.
func (m *Model) applyFilter(text string) tea.Cmd {
	return m.showFilter(parseFilter(text), false)
}

// showFilter shows the frames fl lets through; sent makes it the view of
// a request's frames, which follows the calls tied to it (filter_calls.go).
func (m *Model) showFilter(fl filter, sent bool) tea.Cmd {
	m.filterGen++
	if fl.empty() {
		m.idx.filter = nil
		m.traffic.sync()
		m.syncSelection()
		return nil
	}
	s := m.cfg.Store.Stats()
	m.idx.filter = newFilterView(fl, m.filterGen, s.FirstSeq, m.idx.next)
	m.idx.filter.sent = sent
	return m.filterStep(filterStepMsg{gen: m.filterGen})
}

// filterStep reads the next older frames for the filter, and asks for
// another step until every frame has been read.
func (m *Model) filterStep(msg filterStepMsg) tea.Cmd {
	v := m.idx.filter
	if v == nil || v.gen != msg.gen {
		return nil
	}
	done := v.backfill(m.cfg.Store, m.idx)
	m.traffic.sync()
	m.syncSelection()
	if done {
		return nil
	}
	gen := msg.gen
	return func() tea.Msg { return filterStepMsg{gen: gen} }
}
