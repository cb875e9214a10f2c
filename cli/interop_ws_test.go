package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// TestInteropWSSupergateway drives the TypeScript reference server behind
// supergateway's WebSocket output, a server nobody here wrote: the upgrade
// offers the subprotocol "mcp" and the trace says what the server chose;
// tools are listed; a call with non-ASCII text echoes it; progress
// arrives. (supergateway turns string ids into null and cannot route
// answers to server requests, so elicitation and sampling are left to the
// demo.)
func TestInteropWSSupergateway(t *testing.T) {
	t.Parallel()
	url := peertest.StartSupergatewayWS(t).URL
	r := httpRun(t, url, "tools")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"echo"`) {
		t.Errorf("tools/list lacks echo:\n%s", r.stdout)
	}
	mustTrace(t, r, "→ http", "GET /message HTTP/1.1")
	mustTrace(t, r, "← http", "101 Switching Protocols")
	mustTrace(t, r, `the server chose the subprotocol \"mcp\"`)
	mustTrace(t, r, "request initialize")
	r = httpRun(t, url, "call", "tools/call", callTool(t, "echo", map[string]any{"message": "héllo ✓"}))
	r.mustExit(t, ExitOK)
	if got := toolText(t, r); !strings.Contains(got, "héllo ✓") {
		t.Errorf("echo: %q", got)
	}
	r = httpRun(t, url, "call", "--progress", "tools/call", callTool(t, "trigger-long-running-operation", map[string]any{"duration": 1, "steps": 2}))
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stderr, "progress 2/2") {
		t.Errorf("progress: %s", r.stderr)
	}
}
