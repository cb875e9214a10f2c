package explore

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Model stands in for the UI's root model around the explorer in a w×h
// window: "e" opens an explorer when none is open, every message goes to
// the open one, the discovery's answer is kept, the answers and errors
// the root reports go to the status line, and a refresh hands the lists a
// server said changed to the explorer.
type Model struct {
	host        *screentest.Host
	store       *capture.Store
	interactive Discovery
	changes     ListChanges
	seen        uint64 // the last frame a refresh read
	overlay     screen.Screen
	status      struct{ message string }
	w, h        int
	known       *KnownTools // when set, the host is a ToolSource that knows them
}

// toolHost is the test host as a ToolSource.
type toolHost struct {
	*screentest.Host
	known *KnownTools
}

func (h toolHost) KnownTools() *KnownTools { return h.known }

// openHost is the host the explorer opens on: a ToolSource when m.known
// is set.
func (m *Model) openHost() screen.Host {
	if m.known != nil {
		return toolHost{m.host, m.known}
	}
	return m.host
}

// refreshMsg is the root's refresh: the store's new frames are read.
type refreshMsg struct{ at time.Time }

// bodyH is the explorer's body height: the root's tab bar, title, help
// line and status bar taken off.
func (m *Model) bodyH() int { return max(m.h-4, 0) }

// Update routes msg as the root does.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if m.overlay == nil {
			if msg.String() == "e" {
				x, open := Open(m.openHost(), &m.interactive)
				x.SetSize(m.w, m.bodyH())
				m.overlay = x
				return m, open
			}
			return m, nil
		}
	case DiscoveredMsg:
		m.interactive.Apply(msg)
	case screen.CallDoneMsg:
		note, err := msg.Report()
		if err != nil {
			note = err.Error()
		}
		m.host.Note(note)
	case screen.ErrorMsg:
		m.host.Note(msg.Err.Error())
	case refreshMsg:
		for _, f := range m.store.Window(m.seen+1, m.store.Len()) {
			m.changes.Note(f)
			m.seen = f.Seq
		}
		cmd = ReloadChanged(m.overlay, &m.changes)
	}
	if m.overlay != nil {
		c, closed := m.overlay.Update(msg)
		if closed {
			m.overlay = nil
		}
		cmd = tea.Batch(cmd, c)
	}
	if n := len(m.host.Notes); n > 0 {
		m.status.message = m.host.Notes[n-1]
	}
	return m, cmd
}

// View draws the open explorer as the root would.
func (m *Model) View() tea.View {
	if m.overlay == nil {
		return tea.NewView("")
	}
	return tea.NewView(m.host.View(m.overlay, m.w, m.bodyH()))
}

// cmdRunner runs the model's commands as the Bubble Tea runtime would
// (screentest.Runner).
type cmdRunner struct {
	*screentest.Runner
	m *Model
}

// newModel returns a model of a fresh store, sized w×h, and its runner.
func newModel(t *testing.T, w, h int) (*Model, *cmdRunner) {
	m := &Model{host: screentest.NewHost(), store: capture.NewStore(capture.Config{}), w: w, h: h}
	update := func(msg tea.Msg) tea.Cmd { _, cmd := m.Update(msg); return cmd }
	return m, &cmdRunner{Runner: screentest.NewRunner(t, update, func() string { return m.View().Content }), m: m}
}

// plainView draws m without escapes and trailing spaces.
func plainView(m *Model) string { return goldentest.Plain(m.View().Content) }

// press sends one key press to the model and returns the command.
func press(m *Model, k string) tea.Cmd {
	_, cmd := m.Update(keytest.Press(k))
	return cmd
}

// demoModel connects a model of a fresh store to the in-process demo over
// MCP-Flow, at 120×40.
func demoModel(t *testing.T) (*Model, *cmdRunner, *capture.Store) {
	t.Helper()
	m, r := newModel(t, 120, 40)
	m.host.Sess = screentest.ConnectDemo(t, m.store)
	return m, r, m.store
}

// scriptedModel connects a model at 100×30 to a screentest.WizardPeer;
// the runner drives it.
func scriptedModel(t *testing.T, interactive bool) (*Model, *cmdRunner, *screentest.WizardPeer) {
	t.Helper()
	m, r := newModel(t, 100, 30)
	p, s := screentest.ConnectWizardPeer(t, m.store, interactive)
	m.host.Sess = s
	return m, r, p
}

// openExplorerLoaded presses e and waits until every list of the explorer
// has its answer.
func openExplorerLoaded(t *testing.T, r *cmdRunner) *Explorer {
	t.Helper()
	r.Press("e")
	x, ok := r.m.overlay.(*Explorer)
	if !ok {
		t.Fatalf("e opened %T, want the explorer", r.m.overlay)
	}
	r.Until("every list answered", func() bool {
		for i := range x.lists {
			if x.lists[i].state == listLoading {
				return false
			}
		}
		return true
	})
	return x
}

// names returns the names of a list's shown entries, in order.
func names(l *entryList) []string {
	out := make([]string, len(l.shown))
	for i, k := range l.shown {
		out[i] = l.items[k].name
	}
	return out
}
