package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Interoperability over the legacy HTTP+SSE transport (2024-11-05) with
// the Go SDK sse example and mark3labs' dynamic_path, which have one tool
// each (greet1, echo) and no resources or prompts, so they get the lists
// and a call; interop_http_ts_test.go drives the TypeScript reference's
// sse mode.

// TestInteropHTTPGoSDKSSE drives the Go SDK's legacy sse example, whose
// endpoint is relative, on the stream's own path: its one tool listed and
// called, and its empty resources and prompts listed as empty.
func TestInteropHTTPGoSDKSSE(t *testing.T) {
	t.Parallel()
	peer := peertest.StartGoSDKSSE(t)
	run := tapRunner(peer, []string{"--transport", "sse"}, func(t *testing.T, p peerRun) {
		t.Helper()
		p.assertLegacyHandshake(t, "2025-11-25", true)
		mustTrace(t, p.result, "← control", `"event: endpoint\ndata: /greeter1?sessionid=`)
	})
	checkLists(t, run, listCheck{"tools", "tools", "greet1"})
	for command, want := range map[string]string{
		"resources": `{"resources":[],"resourceTemplates":[]}`,
		"prompts":   `{"prompts":[]}`,
	} {
		t.Run(command, func(t *testing.T) {
			t.Parallel()
			p := run(t, command)
			if p.mustExit(t, ExitOK); strings.TrimSpace(p.stdout) != want || len(p.requests(command+"/list")) != 1 {
				t.Errorf("%s: %q, want %s", command, p.stdout, want)
			}
		})
	}
	t.Run("greet1", func(t *testing.T) {
		t.Parallel()
		if got := toolText(t, run(t, "call", "tools/call", callTool(t, "greet1", map[string]any{"name": "Ada"})).result); got != "Hi Ada" {
			t.Errorf("greet1: %q", got)
		}
	})
}

// TestInteropHTTPMark3labsDynamicPath drives mark3labs' dynamic_path
// example, found by the fallback, whose endpoint is an absolute URL:
// its one tool listed and called; it has no resources or prompts and
// refuses those lists with -32601. It runs without the tap: the absolute
// endpoint names the server's own host and port, so a tap in front would
// see the stream and none of the POSTs.
func TestInteropHTTPMark3labsDynamicPath(t *testing.T) {
	t.Parallel()
	url := peertest.StartMark3labsDynamicPath(t).URL
	r := httpRun(t, url, "tools")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"name":"echo"`) {
		t.Errorf("tools: %s", r.stdout)
	}
	mustTrace(t, r, "← control", `"event: endpoint\ndata: http://localhost:`)
	r = httpRun(t, url, "call", "tools/call", callTool(t, "echo", map[string]any{"message": "hi"}))
	if got := toolText(t, r); got != "Echo: hi" {
		t.Errorf("echo: %q", got)
	}
	mustTrace(t, r, "→ http", "POST /api/"+peertest.DynamicPathTenant+"/message?sessionId=")
	for _, command := range []string{"resources", "prompts"} {
		r = httpRun(t, url, command)
		r.mustExit(t, ExitRPCError)
		mustTrace(t, r, "← control", "-32601")
	}
}
