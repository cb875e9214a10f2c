package compose

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// An error code is named by the request it answers: -32002 on
// resources/read over MCP-Flow is MCP's Resource not found, not MCP-Flow's
// Stream Injection.
func TestComposeNamesErrorByRequest(t *testing.T) {
	m, _ := openCompose(t)
	m.host.Dial = mcp.DialectMCPFlow
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

// A tools/call answered with isError reads as a failed call naming the
// tool and its first text.
func TestComposeToolFailure(t *testing.T) {
	m, _ := openCompose(t)
	_, m.host.Sess = screentest.ConnectToolPeer(t, m.store)
	c := pick(t, m, "tools/call")
	press(m, "down")
	press(m, "end")
	press(m, "left")
	press(m, "left")
	typeKeys(m, "read_file")
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	s := screenText(m)
	if !c.answer.Failed || !strings.Contains(s, "✗ tool failed · tools/call") || !strings.Contains(s, `tool "read_file" failed (isError): ENOENT: no such file`) {
		t.Errorf("the answer (failed %v):\n%s", c.answer.Failed, s)
	}
}

// A tools/call whose structuredContent fails the outputSchema the
// connection's tools/list declared reads as a failed call, as its
// traffic row does.
func TestComposeToolFailsOutputSchema(t *testing.T) {
	m, c := weatherCallWithSchemas(t)
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	s := screenText(m)
	if !c.answer.Failed || !strings.Contains(s, "✗ tool failed · tools/call") || !strings.Contains(s, `tool "weather" returned structuredContent that fails its outputSchema`) {
		t.Errorf("the answer (failed %v):\n%s", c.answer.Failed, s)
	}
}

// The answer of a tools/call arrives judged and rendered where it
// arrived, off the Update goroutine: the failure its outputSchema finds
// comes with it, and Update only shows it.
func TestComposeAnswerJudgedInItsCommand(t *testing.T) {
	m, c := weatherCallWithSchemas(t)
	_, cmd := m.Update(screentest.Ctrl('s'))
	msg := screentest.RunUntil(t, "the composer's call", cmd, func(msg tea.Msg) bool { _, ok := msg.(composeAnswerMsg); return ok }).(composeAnswerMsg)
	if msg.view == nil || msg.view.failure == nil || msg.view.failure.Kind != client.ToolOutputInvalid || !msg.view.out.Failed {
		t.Fatalf("the answer came unjudged: %+v", msg.view)
	}
	m.Update(msg)
	if c.answer != msg.view.out || !strings.Contains(screenText(m), "✗ tool failed · tools/call") {
		t.Errorf("the answer shown is not the one judged:\n%s", screenText(m))
	}
}

// weatherCallWithSchemas opens the composer on the tool peer, with the
// outputSchemas its tools/list declares, and types a tools/call of its
// weather tool, ready to send.
func weatherCallWithSchemas(t *testing.T) (*Model, *Composer) {
	t.Helper()
	m, _ := openCompose(t)
	_, m.host.Sess = screentest.ConnectToolPeer(t, m.store)
	var tools []json.RawMessage
	if err := json.Unmarshal([]byte(screentest.ToolPeerTools), &tools); err != nil {
		t.Fatal(err)
	}
	m.host.Schemas = client.OutputSchemas(tools)
	c := pick(t, m, "tools/call")
	press(m, "down")
	press(m, "end")
	press(m, "left")
	press(m, "left")
	typeKeys(m, "weather")
	return m, c
}
