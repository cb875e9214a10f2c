package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Real servers' failing tools exit 1 with one line naming the tool and
// its first text, and a tool whose structuredContent fits its listed
// outputSchema exits 0: the TypeScript reference server (get-sum refuses a
// string, get-structured-content declares an outputSchema), the Go SDK's
// conformance server (test_error_handling) and the demo (a wizard called
// without its answers).
func TestCallToolFailurePeers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		argv   func(t *testing.T) []string
		call   string
		code   int
		stderr string
	}{
		{"typescript isError", func(t *testing.T) []string { return peertest.TSEverything(t, "stdio") },
			callTool(t, "get-sum", map[string]any{"a": "x", "b": 1}), ExitRPCError,
			`error: tool "get-sum" failed (isError): MCP error -32602: Input validation error: Invalid arguments for tool get-sum`},
		{"typescript outputSchema met", func(t *testing.T) []string { return peertest.TSEverything(t, "stdio") },
			callTool(t, "get-structured-content", map[string]any{"location": "New York"}), ExitOK, ""},
		{"go-sdk conformance isError", func(t *testing.T) []string { return []string{peertest.GoSDKConformance(t)} },
			callTool(t, "test_error_handling", nil), ExitRPCError,
			`error: tool "test_error_handling" failed (isError): this tool intentionally returns an error for testing`},
		{"demo isError", func(t *testing.T) []string { return []string{builtBinary(t), "serve", "--stdio"} },
			callTool(t, "register_user", nil), ExitRPCError,
			`error: tool "register_user" failed (isError): register_user is an interactive wizard: start it with interaction.start, or pass every answer as arguments; missing: name, email`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runBuilt(t, withTarget(tc.argv(t), "call", "tools/call", tc.call)...)
			r.mustExit(t, tc.code)
			if !strings.HasPrefix(strings.TrimSpace(r.stdout), `{`) || !strings.Contains(r.stdout, `"content"`) {
				t.Errorf("stdout is not the result: %s", r.stdout)
			}
			if tc.stderr == "" {
				if r.stderr != "" {
					t.Errorf("stderr: %s", r.stderr)
				}
				return
			}
			if !strings.HasPrefix(r.stderr, tc.stderr) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("stderr:\n%s\nwant one line starting:\n%s", r.stderr, tc.stderr)
			}
		})
	}
}
