package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
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
