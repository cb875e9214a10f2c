package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// The Go SDK's conformance server, stateful, answers the server/discover
// probe and is then initialized to 2025-11-25: its logging is not
// deprecated there, so a clean session has no finding.
func TestFindingsNoneOnStatefulGoSDK(t *testing.T) {
	t.Parallel()
	url := peertest.StartGoSDKConformanceHTTP(t, false).URL
	r := mcpscope(t, "tool", "test_tool_with_logging", "--log-level", "debug", "--findings", url)
	r.mustExit(t, ExitOK)
	if got := findingLines(r); len(got) > 0 {
		t.Errorf("findings on a clean 2025-11-25 session: %q", got)
	}
}

// More of the demo's misbehaviours, each a finding: a POST answered 200
// text/html over HTTP; an MCP-Flow frame in the encoding not negotiated.
func TestFindingsDemoWrongTypes(t *testing.T) {
	http := startTestDemo(t, startHTTPDemo, "http")
	mustFind(t, mcpscope(t, "tool", "misbehave", "mode=wrong_content_type", "--findings", "--timeout", "5s", http), "body-not-jsonrpc")
	d := flowDemo(t)
	r := flowCall(t, d, toolCall(t, "misbehave", map[string]any{"mode": "wrong_encoding"}), "--findings", "--timeout", "5s")
	mustFind(t, r, "encoding-mismatch")
	for _, l := range findingLines(r) {
		if findingLine.MatchString(l) && containsCode(l, "invalid-utf8") {
			t.Errorf("a CBOR frame judged as text: %s", l)
		}
	}
}

// containsCode says whether a --findings line is of code.
func containsCode(line, code string) bool {
	return len(line) > 0 && findingLine.MatchString(line) && strings.Contains(line, " "+code+": ")
}

// A message over --max-frame-size is a finding whichever transport
// refused it: an SSE event over HTTP, a WebSocket message.
func TestFindingsOverTheFrameLimit(t *testing.T) {
	http := startTestDemo(t, startHTTPDemo, "http")
	r := mcpscope(t, "tool", "misbehave", "mode=huge_event", "size=30000", "--max-frame-size", "20000", "--findings", "--timeout", "5s", http)
	mustFind(t, r, "frame-over-limit")
	if strings.Contains(r.stderr, "not a JSON-RPC message") {
		t.Errorf("the refused event is called not JSON-RPC:\n%s", r.stderr)
	}
	ws := startTestDemo(t, startWSDemo, "ws")
	mustFind(t, mcpscope(t, "tool", "misbehave", "mode=oversized_message", "--findings", "--timeout", "5s", "--max-frame-size", "4096", ws), "frame-over-limit")
}
