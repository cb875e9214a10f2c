package wizard

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// t0 is the wizards' clock in these tests.
var t0 = screentest.T0

// Model stands in for the UI's root model around one wizard in a w×h
// window: every message goes to the open wizard, a screen.ErrorMsg goes
// to the status line, and the screen is the wizard's title, body and the
// status line.
type Model struct {
	host    *screentest.Host
	store   *capture.Store
	overlay screen.Screen // the wizard, nil once it closed
	w, h    int
}

// bodyH is the wizard's body height: the root's tab bar, title, help line
// and status bar taken off.
func (m *Model) bodyH() int { return max(m.h-4, 0) }

// update gives msg to the open wizard and drops it once it closes.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	if e, ok := msg.(screen.ErrorMsg); ok {
		m.host.Note(e.Err.Error())
		return nil
	}
	if m.overlay == nil {
		return nil
	}
	cmd, closed := m.overlay.Update(msg)
	if closed {
		m.overlay = nil
	}
	return cmd
}

// View draws the open wizard as the root would.
func (m *Model) View() tea.View {
	if m.overlay == nil {
		return tea.NewView("")
	}
	return tea.NewView(m.host.View(m.overlay, m.w, m.bodyH()))
}

// newModel returns a model of a fresh store, sized w×h, and its runner.
func newModel(t *testing.T, w, h int) (*Model, *screentest.Runner) {
	m := &Model{host: screentest.NewHost(), store: capture.NewStore(capture.Config{}), w: w, h: h}
	return m, screentest.NewRunner(t, m.update, func() string { return m.View().Content })
}

// demoModel connects a model of a fresh store to the in-process demo over
// MCP-Flow, at 120×40.
func demoModel(t *testing.T) (*Model, *screentest.Runner, *capture.Store) {
	t.Helper()
	m, r := newModel(t, 120, 40)
	m.host.Sess = screentest.ConnectDemo(t, m.store)
	return m, r, m.store
}

// scriptedModel connects a model at 100×30 to a screentest.WizardPeer;
// the runner drives it.
func scriptedModel(t *testing.T, interactive bool) (*Model, *screentest.Runner, *screentest.WizardPeer) {
	t.Helper()
	m, r := newModel(t, 100, 30)
	p, s := screentest.ConnectWizardPeer(t, m.store, interactive)
	m.host.Sess = s
	return m, r, p
}

// openToolWizard opens a wizard of tool, as enter on the tool in the
// explorer does: it returns the wizard once it shows its first prompt.
// The wizard's clock is fixed at t0.
func openToolWizard(t *testing.T, r *screentest.Runner, m *Model, tool string) *Wizard {
	t.Helper()
	wiz := New(m.host, tool)
	wiz.SetSize(m.w, m.bodyH())
	m.overlay = wiz
	r.Run(wiz.Start())
	wiz.clock = func() time.Time { return t0 }
	r.Until("the first prompt", func() bool { return wiz.phase == wizAnswering || wiz.phase == wizEnded })
	return wiz
}

// waitPrompt waits until the wizard shows a prompt whose message holds
// text.
func waitPrompt(t *testing.T, r *screentest.Runner, wiz *Wizard, text string) {
	t.Helper()
	r.Until("the prompt "+text, func() bool {
		return wiz.phase == wizAnswering && wiz.widget != nil && strings.Contains(wiz.widget.Prompt().Message, text)
	})
}
