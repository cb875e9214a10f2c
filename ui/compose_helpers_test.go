package ui

import (
	"encoding/json"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/screentest"
	"github.com/mcpscope/mcpscope/proto"
)

// connectFake connects m to a fake peer, as a finished dial would.
func connectFake(t *testing.T, m *Model) *screentest.FakePeer {
	t.Helper()
	f, s := screentest.Connect(t, m.cfg.Store)
	m.conn = connection{link: Link{Transport: f, Session: s}, gen: 1, dialect: proto.DialectMCP, ready: true}
	return f
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
func composerOf(t *testing.T, m *Model) *composer {
	t.Helper()
	c, ok := m.overlay.(*composer)
	if !ok {
		t.Fatalf("the composer is not open (overlay %T)", m.overlay)
	}
	return c
}

// editorJSON is the editor's text as compact JSON.
func editorJSON(t *testing.T, c *composer) string {
	t.Helper()
	v, err := c.editor.Value()
	if err != nil {
		t.Fatalf("the editor does not hold JSON: %v", err)
	}
	return string(v)
}

// decodeParams decodes the params of a sent message.
func decodeParams(t *testing.T, m *proto.Message) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(m.Params, &v); err != nil {
		t.Fatalf("params %s: %v", m.Params, err)
	}
	return v
}
