package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Interoperability over Streamable HTTP with the Go SDK conformance
// everything-server, in both its modes, and with mark3labs' conformance
// server, through the tap of interop_http_wiretap_test.go;
// interop_conformance_test.go is the stdio side.
//
// Not covered, because the servers cannot: a tool slow enough to time out
// (the slowest, test_tool_with_progress, ends in 150 ms), so the tap
// withholds an answer instead; roots outside MRTR (no legacy-era tool asks
// roots/list). The Go SDK server with sessions logs only after
// logging/setLevel, which `mcpscope script` sends.

// conformanceLists are the listings both conformance servers give.
var conformanceLists = []listCheck{
	{"tools", "tools", "test_simple_text"},
	{"resources", "resources", "static-text"},
	{"prompts", "prompts", "test_prompt_with_arguments"},
}

// simpleText is the answer of the conformance servers' test_simple_text.
const simpleText = "This is a simple text response for testing."

// checkSimpleText calls test_simple_text as a parallel subtest.
func checkSimpleText(t *testing.T, run peerRunner) {
	t.Run("test_simple_text", func(t *testing.T) {
		t.Parallel()
		if got := toolText(t, run(t, "call", "tools/call", callTool(t, "test_simple_text", nil)).result); got != simpleText {
			t.Errorf("test_simple_text: %q", got)
		}
	})
}

// TestInteropHTTPConformanceStateful drives the Go SDK conformance server
// with sessions (-stateless=false, 2025-11-25), one feature a subtest:
// the lists, a call, progress, logging, the server's questions answered
// from files and a timeout cancelled with notifications/cancelled.
func TestInteropHTTPConformanceStateful(t *testing.T) {
	t.Parallel()
	peer := peertest.StartGoSDKConformanceHTTP(t, false)
	run := tapRunner(peer, nil, func(t *testing.T, p peerRun) {
		t.Helper()
		p.assertLegacyHandshake(t, "2025-11-25", true)
		mustTrace(t, p.result, "→ http", "DELETE /mcp")
	})
	checkLists(t, run, conformanceLists...)
	checkSimpleText(t, run)
	t.Run("progress", func(t *testing.T) {
		t.Parallel()
		assertConformanceProgress(t, run(t, "call", "--progress", "tools/call", callTool(t, "test_tool_with_progress", nil)))
	})
	t.Run("logging", func(t *testing.T) {
		t.Parallel()
		p := run(t, "script", "--answers", writeAnswers(t, `
steps:
  - {method: logging/setLevel, params: {level: info}}
  - {method: tools/call, params: {name: test_tool_with_logging}}
`))
		if lines := stdoutLines(t, p.result); len(lines) != 2 || toolText(t, result{stdout: lines[1]}) != "Tool with logging executed successfully" {
			t.Errorf("stdout %q", p.stdout)
		}
		call := p.requests("tools/call")[0]
		var logged []string
		answered := false
		for _, m := range p.wire {
			answered = answered || (!m.Out && m.Method == "" && string(m.ID) == string(call.ID))
			if m.Method == "notifications/message" && !answered {
				logged = append(logged, string(m.Params))
			}
		}
		want := []string{`{"data":"Tool execution started","level":"info"}`, `{"data":"Tool processing data","level":"info"}`, `{"data":"Tool execution completed","level":"info"}`}
		if !slices.Equal(logged, want) {
			t.Errorf("logged before the answer %q, want %q", logged, want)
		}
		if n := strings.Count(p.stderr, "notification notifications/message\n"); n != len(want) {
			t.Errorf("--trace shows %d log messages", n)
		}
	})
	checkQuestions(t, run, nil, conformanceQuestions)
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		p, _ := runTapped(t, peer, tapRule{hold: isTool("test_simple_text")}, "call", "--timeout", "1s", "tools/call", callTool(t, "test_simple_text", nil))
		p.mustExit(t, ExitTimeout)
		assertCancelled(t, p, p.requests("tools/call")[0], "timed out after 1s")
	})
}

// TestInteropHTTPConformanceStateless drives the Go SDK conformance server
// in its stateless 2026-07-28 mode: server/discover and no initialize, no
// GET stream; the lists; Mcp-Param headers mirrored from the tool's
// x-mcp-header; progress; MRTR rounds answered from a file; and a timeout
// cancelled by closing the answer stream.
func TestInteropHTTPConformanceStateless(t *testing.T) {
	t.Parallel()
	peer := peertest.StartGoSDKConformanceHTTP(t, true)
	run := tapRunner(peer, nil, func(t *testing.T, p peerRun) {
		t.Helper()
		p.assertModernHandshake(t)
		if line := tracedLine(p.result, "GET /mcp"); line != "" {
			t.Errorf("a stateless session opened a GET stream: %s", line)
		}
	})
	checkLists(t, run, conformanceLists...)
	checkSimpleText(t, run)
	t.Run("test_x_mcp_header", func(t *testing.T) {
		t.Parallel()
		p := run(t, "call", "tools/call", callTool(t, "test_x_mcp_header", map[string]any{"region": "us-west1", "level": 3}))
		if got := toolText(t, p.result); !strings.Contains(got, "us-west1") {
			t.Errorf("test_x_mcp_header: %q", got)
		}
	})
	t.Run("progress", func(t *testing.T) {
		t.Parallel()
		assertConformanceProgress(t, run(t, "call", "--progress", "tools/call", callTool(t, "test_tool_with_progress", nil)))
	})
	t.Run("mrtr", func(t *testing.T) {
		t.Parallel()
		p := run(t, "call", "--answers", writeAnswers(t, "elicitation:\n  - content: {name: Ada}\n"),
			"tools/call", callTool(t, "test_input_required_result_elicitation", nil))
		if rounds, _ := assertRounds(t, p, "tools/call"); rounds != 2 {
			t.Errorf("%d rounds, want the call and its retry", rounds)
		}
		if got := toolText(t, p.result); got != "Hello, Ada!" {
			t.Errorf("result %q", got)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		assertStreamClosedToCancel(t, peer, "test_simple_text")
	})
}

// assertStreamClosedToCancel calls tool against a 2026-07-28 peer whose
// answer the tap withholds, with --timeout 1s: the run exits 4, the trace
// says the answer stream was closed to cancel the call, the tap saw
// mcpscope close it, and no notifications/cancelled went out.
func assertStreamClosedToCancel(t *testing.T, peer *peertest.HTTPPeer, tool string) {
	t.Helper()
	p, exchanges := runTapped(t, peer, tapRule{hold: isTool(tool)}, "call", "--timeout", "1s", "tools/call", callTool(t, tool, nil))
	p.mustExit(t, ExitTimeout)
	p.assertModernHandshake(t)
	call := p.requests("tools/call")[0]
	if d := p.diag(); len(d) != 1 || d[0] != "error: tools/call (id "+string(call.ID)+") timed out after 1s; sent a cancellation" {
		t.Errorf("stderr %q", d)
	}
	mustTrace(t, p.result, "→ http", `"closed the answer stream to cancel tools/call (id `+string(call.ID)+`): timed`)
	if p.sent("notifications/cancelled") {
		t.Errorf("a 2026-07-28 call was cancelled with notifications/cancelled: %s", p.wireDump())
	}
	i := slices.IndexFunc(exchanges, func(x *tappedHTTP) bool { return x.rpc == "tools/call" })
	if i < 0 || !exchanges[i].abandoned {
		t.Errorf("mcpscope did not close the held answer stream: %+v", exchanges)
	}
}

// TestInteropHTTPMark3labs drives mark3labs' conformance server, whose
// answers are plain application/json unless it sends something first:
// the lists, a call and progress in 2026-07-28, a timeout cancelled by
// closing the answer stream, and, in 2025-11-25 (the only era where a
// server asks the client), elicitation and sampling answered from files.
func TestInteropHTTPMark3labs(t *testing.T) {
	t.Parallel()
	peer := peertest.StartMark3labsConformance(t)
	// Sessions are 2026-07-28 unless --protocol asks for 2025-11-25.
	run := tapRunner(peer, nil, func(t *testing.T, p peerRun) {
		t.Helper()
		if p.sent("initialize") {
			p.assertLegacyHandshake(t, "2025-11-25", false)
		} else {
			p.assertModernHandshake(t)
		}
	})
	checkLists(t, run, conformanceLists...)
	t.Run("test_simple_text", func(t *testing.T) {
		t.Parallel()
		p := run(t, "call", "tools/call", callTool(t, "test_simple_text", nil))
		if got := toolText(t, p.result); got != simpleText {
			t.Errorf("test_simple_text: %q", got)
		}
		mustTrace(t, p.result, "← http", "Content-Type: application/json")
	})
	t.Run("progress", func(t *testing.T) {
		t.Parallel()
		p := run(t, "call", "--progress", "tools/call", callTool(t, "test_tool_with_progress", nil))
		if got := toolText(t, p.result); got != "progress reported" {
			t.Errorf("result %q", got)
		}
		want := progressLines(t, p, p.requests("tools/call")[0])
		if len(want) == 0 || want[0] != "progress 0/100" || !slices.Equal(p.diag(), want) {
			t.Errorf("stderr shows %q, the server sent %q", p.diag(), want)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		assertStreamClosedToCancel(t, peer, "test_simple_text")
	})
	checkQuestions(t, run, []string{legacy}, []toolQuestion{
		{"test_elicitation_sep1034_defaults", `{}`, "elicitation:\n  - content: {name: Ada, age: 36}\n",
			"Elicitation completed: action=accept, content=map[age:36 name:Ada score:95.5 status:active verified:true]"},
		{"test_sampling", `{"prompt":"answer?"}`, "sampling:\n  - {text: forty-two, model: scripted-model}\n", "LLM response: forty-two"},
	})
}

// checkQuestions calls each tool with flags, its question answered from
// its file, as a parallel subtest, and checks the result's text.
func checkQuestions(t *testing.T, run peerRunner, flags []string, questions []toolQuestion) {
	t.Helper()
	for _, q := range questions {
		t.Run(q.tool, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"call"}, flags...), "--answers", writeAnswers(t, q.answers))
			p := run(t, append(args, "tools/call", `{"name":"`+q.tool+`","arguments":`+q.args+`}`)...)
			if got := toolText(t, p.result); got != q.want {
				t.Errorf("%s: %q, want %q", q.tool, got, q.want)
			}
		})
	}
}
