package compose

import (
	"encoding/json"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Model stands in for the UI's root model around the composer: ":" opens
// a composer over a 120×30 window, every message goes to the open one, and
// the screen is its title over its body.
type Model struct {
	host     *screentest.Host
	store    *capture.Store
	composed History
	overlay  screen.Screen
}

// bodyW and bodyH are the composer's body in a 120×30 window: the root's
// tab bar, help line, status bar and title line taken off.
const bodyW, bodyH = 120, 30 - 4

// Update opens the composer on ":" when none is open, and gives every
// other message to the open one, which it drops once it closes.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	if m.overlay == nil {
		if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == ":" {
			c, cmd := Open(m.host, &m.composed)
			c.SetSize(bodyW, bodyH)
			m.overlay = c
			return m, cmd
		}
		return m, nil
	}
	cmd, closed := m.overlay.Update(msg)
	if closed {
		m.overlay = nil
	}
	return m, cmd
}

// View is the open composer's title over its body.
func (m *Model) View() tea.View {
	if m.overlay == nil {
		return tea.NewView("")
	}
	return tea.NewView(m.host.View(m.overlay, bodyW, bodyH))
}

// openCompose opens the composer, unconnected.
func openCompose(t *testing.T) (*Model, *Composer) {
	t.Helper()
	m := &Model{host: screentest.NewHost(), store: capture.NewStore(capture.Config{})}
	press(m, ":")
	return m, composerOf(t, m)
}

// connectFake connects the composer's host to a fake peer that captures
// in the model's store.
func connectFake(t *testing.T, m *Model) *screentest.FakePeer {
	t.Helper()
	f, s := screentest.Connect(t, m.store)
	m.host.Sess = s
	return f
}

// pick types a filter and picks the first row.
func pick(t *testing.T, m *Model, filter string) *Composer {
	t.Helper()
	typeKeys(m, filter)
	press(m, "enter")
	c := composerOf(t, m)
	if c.stage != stageEdit {
		t.Fatalf("enter on %q: stage %d, want the editor", filter, c.stage)
	}
	return c
}

// screenText is the whole screen, ANSI stripped.
func screenText(m *Model) string { return ansi.Strip(m.View().Content) }

// press sends one key press to the model and returns the command.
func press(m *Model, k string) tea.Cmd {
	_, cmd := m.Update(keytest.Press(k))
	return cmd
}

// clock hands out times 5 ms apart.
type clock struct{ n int }

func (c *clock) next() time.Time {
	c.n++
	return screentest.T0.Add(time.Duration(c.n) * 5 * time.Millisecond)
}

// runUntilAnswer runs cmd, and the commands of a batch, and gives the
// composer's answer to the model; ticks and cursor blinks are dropped.
func runUntilAnswer(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	m.Update(screentest.RunUntil(t, "the composer's call", cmd, func(msg tea.Msg) bool { _, ok := msg.(composeAnswerMsg); return ok }))
}

// typeKeys sends each rune of s to the model as a key press.
func typeKeys(m *Model, s string) {
	for _, r := range s {
		press(m, string(r))
	}
}

// composerOf returns the open composer.
func composerOf(t *testing.T, m *Model) *Composer {
	t.Helper()
	c, ok := m.overlay.(*Composer)
	if !ok {
		t.Fatalf("the composer is not open (overlay %T)", m.overlay)
	}
	return c
}

// editorJSON is the editor's text as compact JSON.
func editorJSON(t *testing.T, c *Composer) string {
	t.Helper()
	v, err := c.editor.Value()
	if err != nil {
		t.Fatalf("the editor does not hold JSON: %v", err)
	}
	return string(v)
}

// decodeParams decodes the params of a sent message.
func decodeParams(t *testing.T, m *jsonrpc.Message) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(m.Params, &v); err != nil {
		t.Fatalf("params %s: %v", m.Params, err)
	}
	return v
}
