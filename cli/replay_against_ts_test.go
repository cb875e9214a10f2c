package cli

import (
	"path/filepath"
	"testing"
)

// A session recorded against the TypeScript reference server
// (@modelcontextprotocol/server-everything, stdio) and sent again to a
// fresh one comes back equal: lists matched item by item, tool calls, an
// error answer (capabilities, which the server does not know) and an
// elicitation answered from the recording.
func TestReplayAgainstTS(t *testing.T) {
	t.Parallel()
	argv := tsServer(t)
	dir := t.TempDir()

	tools := filepath.Join(dir, "tools.mcpscope.jsonl")
	mcpscope(t, withTarget(argv, "tools", "--record", tools)...).mustExit(t, ExitOK)
	r := mcpscope(t, withTarget(argv, "replay", tools, "--against")...)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, "ok      tools/list", "1 request sent again: 1 ok, 0 differ, 0 skipped")

	answers := writeAnswers(t, `
steps:
  - {method: prompts/list}
  - {method: resources/list}
  - {method: resources/templates/list}
  - {tool: echo, arguments: {message: "héllo"}}
  - {tool: get-sum, arguments: {a: 2.5, b: 4}}
  - {tool: trigger-elicitation-request}
  - {method: ping}
elicitation:
  - action: accept
    content: {name: Ada, check: true, integer: 7}
`)
	session := filepath.Join(dir, "session.mcpscope.jsonl")
	mcpscope(t, withTarget(argv, "script", "--answers", answers, "--record", session)...).mustExit(t, ExitOK)
	r = mcpscope(t, withTarget(argv, "replay", session, "--against")...)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r,
		"ok      prompts/list",
		"ok      resources/list",
		"ok      resources/templates/list",
		"ok      capabilities",
		`ok      tools/call "echo"`,
		`ok      tools/call "get-sum"`,
		`ok      tools/call "trigger-elicitation-request"`,
		"ok      ping",
		"8 requests sent again: 8 ok, 0 differ, 0 skipped")
}
