package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// `mcpscope script` over Streamable HTTP against real third-party servers
// (PEERS.md): the server's questions are answered from the --answers file
// and the answers cross the wire as POSTs of the session.

// TestScriptHTTPTSStreamable runs a script against the TypeScript
// reference over Streamable HTTP in a 2025-11-25 session: its elicitation
// form accepted with the file's content, its sampling request answered
// from the file, then a ping; one result per step on stdout, in order.
func TestScriptHTTPTSStreamable(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSStreamableHTTP(t).URL
	answers := writeAnswers(t, `
steps:
  - tool: trigger-elicitation-request
  - {tool: trigger-sampling-request, arguments: {prompt: "What is the capital of France?"}}
  - {method: ping}
elicitation:
  - content: {name: Ada Lovelace, check: true, email: ada@example.com, integer: 7}
sampling:
  - {text: "Paris, over HTTP.", model: scripted-http}
`)
	r := httpRun(t, url, "script", "--answers", answers)
	r.mustExit(t, ExitOK)
	lines := stdoutLines(t, r)
	if len(lines) != 3 {
		t.Fatalf("stdout has %d lines, want one per step:\n%s", len(lines), r.stdout)
	}
	if got := toolText(t, result{stdout: lines[0]}); !strings.Contains(got, "User provided the requested information") || !strings.Contains(got, "Name: Ada Lovelace") || !strings.Contains(got, "Favorite Integer: 7") {
		t.Errorf("elicitation step: %q", got)
	}
	if got := toolText(t, result{stdout: lines[1]}); !strings.Contains(got, "scripted-http") || !strings.Contains(got, "Paris, over HTTP.") {
		t.Errorf("sampling step: %q", got)
	}
	if lines[2] != "{}" {
		t.Errorf("ping step: %q", lines[2])
	}
	mustTrace(t, r, "→ control", "request initialize")
	for _, method := range []string{"elicitation/create", "sampling/createMessage"} {
		// The server's request came on an SSE stream; its answer went out
		// as a POST of its own, under the server's id.
		m := regexp.MustCompile(`← control \S+ request ` + method + ` id=(\S+)\n`).FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("no %s from the server:\n%s", method, r.stderr)
		}
		mustTrace(t, r, "→ control", "result id="+m[1])
	}
	mustTrace(t, r, "→ http", "POST /mcp")
	mustTrace(t, r, "→ http", "DELETE /mcp")
}

// TestScriptHTTPConformanceMRTR runs a script against the Go SDK
// conformance server in its stateless 2026-07-28 mode, where the server
// asks by answering input_required: the round's elicitation is answered
// from the file and the tool call retried with it, with no initialize.
func TestScriptHTTPConformanceMRTR(t *testing.T) {
	t.Parallel()
	url := peertest.StartGoSDKConformanceHTTP(t, true).URL
	answers := writeAnswers(t, `
steps:
  - tool: test_input_required_result_elicitation
elicitation:
  - {action: accept, content: {name: Ada}}
`)
	r := httpRun(t, url, "script", "--answers", answers)
	r.mustExit(t, ExitOK)
	lines := stdoutLines(t, r)
	if len(lines) != 1 {
		t.Fatalf("stdout has %d lines, want one:\n%s", len(lines), r.stdout)
	}
	if got := toolText(t, result{stdout: lines[0]}); got != "Hello, Ada!" {
		t.Errorf("the tool's result: %q", got)
	}
	if n := strings.Count(r.stderr, "request tools/call"); n != 2 {
		t.Errorf("tools/call went out %d times, want the call and its retry:\n%s", n, r.stderr)
	}
	mustTrace(t, r, "request server/discover")
	if line := tracedLine(r, "request initialize"); line != "" {
		t.Errorf("a 2026-07-28 session sent initialize: %s", line)
	}
}
