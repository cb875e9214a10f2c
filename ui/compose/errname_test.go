package compose

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/screentest"
	"github.com/mcpscope/mcpscope/proto"
)

// An error code is named by the request it answers: -32002 on
// resources/read over MCP-Flow is MCP's Resource not found, not MCP-Flow's
// Stream Injection.
func TestComposeNamesErrorByRequest(t *testing.T) {
	m, _ := openCompose(t)
	m.host.Dial = proto.DialectMCPFlow
	m.host.Sess = screentest.ConnectDemo(t, m.store)
	pick(t, m, "resources/read")
	press(m, "down")
	press(m, "end")
	press(m, "left")
	typeKeys(m, "demo://nothere")
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	s := screenText(m)
	if !strings.Contains(s, "error -32002 Resource not found") || strings.Contains(s, "Stream Injection") {
		t.Errorf("the answer to resources/read:\n%s", s)
	}
}
