package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/flowtest"
	"github.com/mcpscope/mcpscope/internal/goldentest"
	"github.com/mcpscope/mcpscope/internal/screentest"
)

// cmdRunner runs the root model's commands as the Bubble Tea runtime
// would (screentest.Runner).
type cmdRunner struct {
	*screentest.Runner
	m *Model
}

// newRunner returns a runner for m; its commands end with the test.
func newRunner(t *testing.T, m *Model) *cmdRunner {
	update := func(msg tea.Msg) tea.Cmd { _, cmd := m.Update(msg); return cmd }
	return &cmdRunner{Runner: screentest.NewRunner(t, update, func() string { return m.View().Content }), m: m}
}

// plainView draws m without escapes and trailing spaces.
func plainView(m *Model) string { return goldentest.Plain(m.View().Content) }

// demoModel connects a model of a fresh store to the in-process demo over
// MCP-Flow, at 120×40.
func demoModel(t *testing.T) (*Model, *cmdRunner, *capture.Store) {
	t.Helper()
	d := flowtest.Start(t, flow.Config{})
	st := capture.NewStore(capture.Config{})
	m := New(Config{Store: st, Dial: flowDialer(d), Target: d.Target()})
	t.Cleanup(func() { _ = m.Close() })
	r := newRunner(t, m)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	r.Run(m.dial())
	r.Until("connected", func() bool { return m.conn.ready })
	return m, r, st
}

// openExplorerLoaded presses e and waits until every list of the explorer
// has its answer.
func openExplorerLoaded(t *testing.T, r *cmdRunner) *explorer {
	t.Helper()
	r.Press("e")
	x, ok := r.m.overlay.(*explorer)
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
