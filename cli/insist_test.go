package cli

import (
	"strings"
	"testing"
)

// startParamDemo serves the HTTP demo in this process for the test and
// returns its Streamable HTTP URL, where 2026-07-28 lists route and
// route_clash.
func startParamDemo(t *testing.T) string {
	t.Helper()
	return startTestDemo(t, startHTTPDemo, "http")
}

// A tools/call of a tool whose x-mcp-header annotations are invalid is not
// sent: exit 5 with the reason and the flag that insists. With --insist it
// goes out without Mcp-Param headers, is answered, and stderr says so.
func TestCallInvalidToolHeadersRefusedUntilInsist(t *testing.T) {
	url := startParamDemo(t)
	clash := callTool(t, "route_clash", map[string]any{"tenant": "a", "org": "b"})

	r := mcpscope(t, "call", "--trace", "tools/call", clash, url)
	r.mustExit(t, ExitProtocol)
	if !strings.Contains(r.stderr, `error: tools/call was not sent: the tool "route_clash" declares invalid x-mcp-header annotations `+
		`(the x-mcp-header name "Tenant" is used twice), so a conforming client does not call it; --insist sends it anyway`) {
		t.Errorf("refusal:\n%s", r.stderr)
	}
	if line := tracedLine(r, "request tools/call"); line != "" {
		t.Errorf("the refused call was sent: %s", line)
	}

	r = mcpscope(t, "call", "--trace", "--insist", "tools/call", clash, url)
	if got := toolText(t, r); got != `org="b" tenant="a"` {
		t.Errorf("insisted route_clash: %q", got)
	}
	if !strings.Contains(r.stderr, `warning: the tool "route_clash" declares invalid x-mcp-header annotations`) ||
		!strings.Contains(r.stderr, "sent anyway (--insist), without its Mcp-Param headers") {
		t.Errorf("no warning of the insisted call:\n%s", r.stderr)
	}
	if line := tracedLine(r, "Mcp-Param-"); line != "" {
		t.Errorf("an insisted call sent %s", line)
	}
}

// A valid tool's annotated arguments travel in Mcp-Param headers, on the
// wire in --trace, and the demo, which checks them against the body,
// answers; a header the body does not back is refused with 400 and
// -32020, which is the server's answer (exit 1), named.
func TestCallMirrorsParamHeaders(t *testing.T) {
	url := startParamDemo(t)
	r := mcpscope(t, "call", "--trace", "tools/call", callTool(t, "route", map[string]any{"region": "eu-west1", "priority": 2, "dry_run": false}), url)
	if got := toolText(t, r); got != `dry_run=false priority=2 region="eu-west1"` {
		t.Errorf("route: %q", got)
	}
	for _, h := range []string{"Mcp-Param-Region: eu-west1", "Mcp-Param-Priority: 2", "Mcp-Param-Dry-Run: false"} {
		mustTrace(t, r, "→ http", h)
	}

	r = mcpscope(t, "call", "--header", "Mcp-Param-Dry-Run: true", "tools/call", callTool(t, "route", map[string]any{"region": "eu-west1"}), url)
	r.mustExit(t, ExitRPCError)
	if !strings.Contains(r.stderr, "error: tools/call failed: Header mismatch: Mcp-Param-Dry-Run is sent but the body has no dry_run (code -32020 Header mismatch)") {
		t.Errorf("-32020:\n%s", r.stderr)
	}
}

// mcpscope tools lists a tool whose x-mcp-header annotations are invalid,
// as the server sent it, and warns on stderr why a call refuses it.
func TestToolsWarnsOfInvalidToolHeaders(t *testing.T) {
	r := mcpscope(t, "tools", startParamDemo(t))
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, `"name":"route_clash"`) || !strings.Contains(r.stdout, `"name":"route"`) {
		t.Errorf("tools: %s", r.stdout)
	}
	want := `warning: the tool "route_clash" declares invalid x-mcp-header annotations (the x-mcp-header name "Tenant" is used twice), ` +
		"so a conforming client does not call it; mcpscope call refuses it unless --insist"
	if !strings.Contains(r.stderr, want) || strings.Count(r.stderr, "warning:") != 1 {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// mcpscope script refuses a tool step whose x-mcp-header annotations are
// invalid, naming --insist, and sends it with --insist, as call does.
func TestScriptInvalidToolHeadersRefusedUntilInsist(t *testing.T) {
	url := startParamDemo(t)
	args := `{"tenant":"a","org":"b"}`
	r := mcpscope(t, "script", "--tool", "route_clash", "--args", args, url)
	r.mustExit(t, ExitProtocol)
	if !strings.Contains(r.stderr, `declares invalid x-mcp-header annotations`) || !strings.Contains(r.stderr, "--insist sends it anyway") {
		t.Errorf("refusal:\n%s", r.stderr)
	}
	r = mcpscope(t, "script", "--insist", "--tool", "route_clash", "--args", args, url)
	if got := toolText(t, r); got != `org="b" tenant="a"` {
		t.Errorf("insisted route_clash: %q\n%s", got, r.stderr)
	}
}
