package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Interoperability with the TypeScript reference over its two HTTP
// transports, Streamable HTTP (streamableHttp) and legacy HTTP+SSE (sse),
// through the tap of interop_http_wiretap_test.go: the checks of its
// stdio matrix (interop_ts_test.go) run unchanged over each.

// tsHTTPModes are the reference's HTTP transports: how to start it, the
// flags that pick the transport, and what every session must show.
var tsHTTPModes = []struct {
	name      string
	start     func(testing.TB) *peertest.HTTPPeer
	flags     []string
	handshake func(*testing.T, peerRun)
}{
	{"streamableHttp", peertest.StartTSStreamableHTTP, nil, func(t *testing.T, p peerRun) {
		t.Helper()
		// The probe before any session is a 400 with a JSON-RPC error
		// (id null), then initialize opens a session that DELETE ends.
		p.assertLegacyHandshake(t, "2025-11-25", true)
		mustTrace(t, p.result, "← control", "error id=null", "Server not initialized")
		mustTrace(t, p.result, "→ http", "DELETE /mcp")
	}},
	{"sse", peertest.StartTSSSE, []string{"--transport", "sse"}, func(t *testing.T, p peerRun) {
		t.Helper()
		p.assertLegacyHandshake(t, "2025-11-25", true)
		mustTrace(t, p.result, "← control", `"event: endpoint\ndata: /message?sessionId=`)
	}},
}

// TestInteropHTTPTS drives the TypeScript reference over each HTTP
// transport, one server each and one feature a subtest, checked as on
// stdio: the lists, progress, a timeout cancelled with
// notifications/cancelled, elicitation (every field kind), sampling and
// roots (the server also asks roots/list by itself).
func TestInteropHTTPTS(t *testing.T) {
	t.Parallel()
	for _, mode := range tsHTTPModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			peer := mode.start(t)
			run := tapRunner(peer, mode.flags, mode.handshake)
			checkLists(t, run,
				listCheck{"tools", "tools", "echo"},
				listCheck{"resources", "resources", "architecture.md"},
				listCheck{"prompts", "prompts", "simple-prompt"})
			for name, check := range map[string]func(*testing.T, peerRunner){
				"progress":    checkTSProgress,
				"timeout":     checkTSTimeoutCancels,
				"elicitation": checkTSElicitation,
				"sampling":    checkTSSampling,
				"roots":       checkTSRoots,
			} {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					check(t, run)
				})
			}
			t.Run("echo", func(t *testing.T) {
				t.Parallel()
				msg := "héllo, wörld ✓"
				if got := toolText(t, run(t, "call", "tools/call", callTool(t, "echo", map[string]any{"message": msg})).result); got != "Echo: "+msg {
					t.Errorf("echo: %q", got)
				}
			})
		})
	}
}

// TestInteropHTTPTSFallback: with no transport named, the legacy server
// is found by the fallback, which says so.
func TestInteropHTTPTSFallback(t *testing.T) {
	t.Parallel()
	r := httpRun(t, peertest.StartTSSSE(t).URL, "tools")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stderr, "trying the legacy HTTP+SSE transport") || !strings.Contains(r.stdout, `"name":"echo"`) {
		t.Errorf("fallback: stderr %q, stdout %.200q", r.stderr, r.stdout)
	}
}
