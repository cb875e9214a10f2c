package cli

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/flow"
)

// wsURLLine is the MCP-over-WebSocket line `mcpscope serve --ws` prints.
var wsURLLine = regexp.MustCompile(`MCP over WebSocket .*: (ws://127\.0\.0\.1:[0-9]+)/mcp\n`)

// `mcpscope serve --ws 127.0.0.1:0` prints its URLs and serves them:
// `tools` and `call` with --transport ws list and call the demo's tools
// over an MCP session, `call` with --transport tools-ws over seed 004's
// frames (its unsolicited ping traced as the keep-alive it is, not as a
// decode error), an unknown tool there
// is a JSON-RPC error (exit 1), and misbehave close_1011 is a clear error
// naming the close code. Beside --http both are served.
func TestServeWSPrintsItsURLs(t *testing.T) {
	ctx, cancel := serveContext()
	defer cancel()
	m, errw, exit := startServe(t, ctx, wsURLLine, "serve", "--ws", "127.0.0.1:0", "--http", "127.0.0.1:0", "--root", t.TempDir())
	base := m[1]
	for _, want := range []string{"tool frames over WebSocket (--transport tools-ws): " + base + "/tools", "gateway streams (JSON-RPC and StreamMessage, --transport gateway): " + base + "/gateway",
		"mcpscope tools " + base + "/mcp", "Streamable HTTP"} {
		if !strings.Contains(errw.String(), want) {
			t.Errorf("stderr lacks %q: %s", want, errw.String())
		}
	}
	r := mcpscope(t, "tools", "--transport", "ws", base+"/mcp")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "echo") || !strings.Contains(r.stdout, "misbehave") {
		t.Errorf("tools over ws: %s", r.stdout)
	}
	r = mcpscope(t, "call", "--transport", "ws", "tools/call", callTool(t, "echo", map[string]any{"message": "over ws"}), base+"/mcp")
	if got := toolText(t, r); !strings.Contains(got, "over ws") {
		t.Errorf("call over ws: %q", got)
	}
	r = mcpscope(t, "call", "--transport", "tools-ws", "--trace", "tools/call", callTool(t, "echo", map[string]any{"message": "over tools-ws"}), base+"/tools")
	if got := toolText(t, r); !strings.Contains(got, "over tools-ws") {
		t.Errorf("call over tools-ws: %q", got)
	}
	if !strings.Contains(r.stderr, `{\"type\":\"ping\"}`) || !strings.Contains(r.stderr, "ping (tools-ws keep-alive") || strings.Contains(r.stderr, "decode error") {
		t.Errorf("tools-ws: the server's ping is not shown: %s", r.stderr)
	}
	r = mcpscope(t, "call", "--transport", "tools-ws", "tools/call", callTool(t, "no_such_tool", nil), base+"/tools")
	r.mustExit(t, ExitRPCError)
	r = mcpscope(t, "call", "--transport", "ws", "tools/call", callTool(t, "misbehave", map[string]any{"mode": "close_1011"}), base+"/mcp")
	if r.code == ExitOK || !strings.Contains(r.stderr, "1011") {
		t.Errorf("close_1011: exit %d: %s", r.code, r.stderr)
	}
	stopServe(t, cancel, errw, exit)
}

// --ws needs an address and contradicts --stdio; MCP-Flow's flags need
// --listen beside it.
func TestServeWSUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--ws", ""},
		{"serve", "--stdio", "--ws", "127.0.0.1:0"},
		{"serve", "--ws", "127.0.0.1:0", "--max-streams", "4"},
	} {
		r := mcpscope(t, args...)
		r.mustExit(t, ExitUsage)
	}
}

// The demo's WebSocket misbehave modes through `mcpscope call`, on each
// path: close 1011 and a message over --max-frame-size each end the call
// with exit 3 and one line that names the close code, "connection lost"
// said once.
func TestWSMisbehaveThroughTheCLI(t *testing.T) {
	closed := "error: connection lost: the server closed the WebSocket with 1011 (internal error): misbehave: an internal error on purpose"
	tooBig := func(limit int) string {
		return fmt.Sprintf("error: connection lost: the server sent a message over --max-frame-size (%d bytes): mcpscope closed the WebSocket with 1009 (message too big)", limit)
	}
	for _, transport := range []string{"ws", "tools-ws", "gateway"} {
		url := startTestDemo(t, startWSDemo, transport)
		for _, tc := range []struct {
			args  map[string]any
			flags []string
			want  string
		}{
			{map[string]any{"mode": "close_1011"}, nil, closed},
			{map[string]any{"mode": "oversized_message", "size": 8192}, []string{"--max-frame-size", "4096"}, tooBig(4096)},
		} {
			args := append(append([]string{"call", "--transport", transport}, tc.flags...), "tools/call", callTool(t, "misbehave", tc.args), url)
			r := mcpscope(t, args...)
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if r.code != ExitConnection || lines[len(lines)-1] != tc.want || strings.Count(r.stderr, "connection lost") != 1 || r.stdout != "" {
				t.Errorf("%s %v: exit %d\nstdout %q\nstderr %s", transport, tc.args["mode"], r.code, r.stdout, r.stderr)
			}
		}
	}
	// The default limit holds against the demo's default oversized message.
	r := mcpscope(t, "call", "--transport", "ws", "tools/call", callTool(t, "misbehave", map[string]any{"mode": "oversized_message"}), startTestDemo(t, startWSDemo, "ws"))
	if r.code != ExitConnection || strings.TrimSpace(r.stderr) != tooBig(flow.DefaultMaxControlFrame) {
		t.Errorf("oversized_message at the default limit: exit %d\nstderr %s", r.code, r.stderr)
	}
}
