package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/peertest"
)

// The HTTP interoperability tests run the real command in-process against
// the third-party HTTP servers of PEERS.md, each started on a loopback
// port of its own, with --trace, and assert both the answers and what the
// trace shows crossed the wire.

// httpRun runs mcpscope with args and --trace against url.
func httpRun(t *testing.T, url string, args ...string) result {
	t.Helper()
	return mcpscope(t, append(append(args, "--trace"), url)...)
}

// tracedLine returns the first stderr line holding every part, or "".
func tracedLine(r result, parts ...string) string {
	for _, line := range strings.Split(r.stderr, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(line, p)
		}
		if ok {
			return line
		}
	}
	return ""
}

// mustTrace fails unless a trace line holds every part.
func mustTrace(t *testing.T, r result, parts ...string) {
	t.Helper()
	if tracedLine(r, parts...) == "" {
		t.Errorf("no trace line holds %q:\n%s", parts, r.stderr)
	}
}

// peerRunner runs mcpscope with args (command, flags, positional
// arguments) against one peer over one transport.
type peerRunner func(t *testing.T, args ...string) peerRun

// listCheck is a listing a peer must give: the command, the field of its
// JSON that holds the items, and the name of one item.
type listCheck struct{ command, field, want string }

// checkLists runs each listing as a parallel subtest: stdout holds the
// items of every page on the wire, and the item named.
func checkLists(t *testing.T, run peerRunner, lists ...listCheck) {
	t.Helper()
	for _, l := range lists {
		t.Run(l.command, func(t *testing.T) {
			t.Parallel()
			if names := assertAllPages(t, run(t, l.command), l.command+"/list", l.field); !slices.Contains(names, l.want) {
				t.Errorf("%s lacks %q: %v", l.command, l.want, names)
			}
		})
	}
}

// TestInteropHTTPTSStreamable drives the TypeScript reference over
// Streamable HTTP: the probe answered 400 with a JSON-RPC error, then
// initialize in a session; calls with non-ASCII text; progress; a timeout
// that cancels; elicitation, sampling and roots answered from files; and
// DELETE at the end.
func TestInteropHTTPTSStreamable(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSStreamableHTTP(t).URL
	msg := "héllo, wörld ✓"
	r := httpRun(t, url, "call", "tools/call", callTool(t, "echo", map[string]any{"message": msg}))
	if got := toolText(t, r); got != "Echo: "+msg {
		t.Errorf("echo: %q", got)
	}
	mustTrace(t, r, "← control", "error id=null", "Server not initialized")
	mustTrace(t, r, "→ control", "request initialize")
	mustTrace(t, r, "→ http", "DELETE /mcp")

	r = httpRun(t, url, "call", "--progress", "tools/call", callTool(t, "trigger-long-running-operation", map[string]any{"duration": 1, "steps": 2}))
	if got := toolText(t, r); !strings.HasPrefix(got, "Long running operation completed.") {
		t.Errorf("long operation: %q", got)
	}
	for _, p := range []string{"progress 1/2", "progress 2/2"} {
		if !strings.Contains(r.stderr, p+"\n") {
			t.Errorf("stderr lacks %q:\n%s", p, r.stderr)
		}
	}

	r = httpRun(t, url, "call", "--timeout", "2s", "tools/call", callTool(t, "trigger-long-running-operation", map[string]any{"duration": 10, "steps": 2}))
	r.mustExit(t, ExitTimeout)
	mustTrace(t, r, "→ control", "notifications/cancelled")

	answers := writeAnswers(t, "elicitation:\n  - action: decline\nsampling:\n  - text: Paris.\n    model: scripted-model\n")
	r = httpRun(t, url, "call", "--answers", answers, "tools/call", callTool(t, "trigger-elicitation-request", nil))
	if got := toolText(t, r); !strings.Contains(got, "declined") {
		t.Errorf("elicitation declined: %q", got)
	}
	r = httpRun(t, url, "call", "--answers", answers, "tools/call", callTool(t, "trigger-sampling-request", map[string]any{"prompt": "Capital of France?"}))
	if got := toolText(t, r); !strings.Contains(got, "scripted-model") || !strings.Contains(got, "Paris.") {
		t.Errorf("sampling: %q", got)
	}
	r = httpRun(t, url, "call", "--root", "file:///srv/data", "tools/call", callTool(t, "get-roots-list", nil))
	if got := toolText(t, r); !strings.Contains(got, "file:///srv/data") {
		t.Errorf("roots: %q", got)
	}
}

// TestInteropHTTPTSLegacySSE drives the TypeScript reference's legacy
// HTTP+SSE transport, named (--transport sse) and found by the fallback.
func TestInteropHTTPTSLegacySSE(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSSSE(t).URL
	r := httpRun(t, url, "--transport", "sse", "call", "tools/call", callTool(t, "get-sum", map[string]any{"a": 2, "b": 3}))
	if got := toolText(t, r); got != "The sum of 2 and 3 is 5." {
		t.Errorf("get-sum: %q", got)
	}
	mustTrace(t, r, "← control", "endpoint")
	r = httpRun(t, url, "tools")
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stderr, "trying the legacy HTTP+SSE transport") || !strings.Contains(r.stdout, `"name":"echo"`) {
		t.Errorf("fallback: stderr %q, stdout %.200q", r.stderr, r.stdout)
	}
}

// TestInteropHTTPLegacyEndpoints drives the legacy servers whose endpoint
// event is relative on the stream's own path (Go SDK sse example) or an
// absolute URL (mark3labs dynamic_path).
func TestInteropHTTPLegacyEndpoints(t *testing.T) {
	t.Parallel()
	url := peertest.StartGoSDKSSE(t).URL
	r := httpRun(t, url, "--transport", "sse", "call", "tools/call", callTool(t, "greet1", map[string]any{"name": "Ada"}))
	if got := toolText(t, r); !strings.Contains(got, "Ada") {
		t.Errorf("greet1: %q", got)
	}
	url = peertest.StartMark3labsDynamicPath(t).URL
	r = httpRun(t, url, "call", "tools/call", callTool(t, "echo", map[string]any{"message": "hi"}))
	r.mustExit(t, ExitOK)
	mustTrace(t, r, "endpoint", "http://localhost:")
}
