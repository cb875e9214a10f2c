package compose

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

func TestGoldenComposePicker(t *testing.T) {
	m, c := openCompose(t)
	goldentest.CheckPlain(t, "compose_picker", c.Render(90, 12))
	typeKeys(m, "res")
	press(m, "down")
	goldentest.CheckPlain(t, "compose_picker_filtered", c.Render(90, 8))
}

func TestGoldenComposeEditor(t *testing.T) {
	m, _ := openCompose(t)
	c := pick(t, m, "tools/call")
	goldentest.CheckPlain(t, "compose_editor", c.Render(70, 8))
	press(m, "x")
	m.Update(screentest.Ctrl('s'))
	goldentest.CheckPlain(t, "compose_editor_invalid", c.Render(70, 9))
}

func TestGoldenComposeAnswers(t *testing.T) {
	m, c := openCompose(t)
	connectFake(t, m)
	c.now = (&clock{}).next
	pick(t, m, "prompts/get")
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	goldentest.CheckPlain(t, "compose_result", c.Render(70, 14))
	press(m, "esc")
	press(m, "esc")
	for range len("prompts/get") {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	pick(t, m, "no/such")
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	goldentest.CheckPlain(t, "compose_error", c.Render(70, 5))
}
