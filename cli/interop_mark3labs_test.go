package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Interoperability with mark3labs/mcp-go's everything example (stdio).
// Version 1.2.1 answers server/discover, so sessions are 2026-07-28 unless
// --protocol asks for the legacy era.
//
// Already in cli/e2e_test.go and not repeated: the resources and prompts
// listings (TestE2EListsMark3labs).
//
// Not covered, because the server has no such feature: elicitation,
// sampling and roots (its sampling tool is commented out in the source and
// no tool asks the client anything), and so no MRTR round either.

// TestInteropMark3labsHandshake: modern by default, legacy on request; the
// 101 resources come in every page there is.
func TestInteropMark3labsHandshake(t *testing.T) {
	t.Parallel()
	argv := peertest.Mark3labsEverything(t)
	p := runPeer(t, argv, "tools")
	p.assertModernHandshake(t)
	if names := assertAllPages(t, p, "tools/list", "tools"); !slices.Contains(names, "echo") || !slices.Contains(names, "longRunningOperation") {
		t.Errorf("tools %v", names)
	}
	p = runPeer(t, argv, "resources", legacy)
	p.assertLegacyHandshake(t, "2025-11-25", false)
	if uris := assertAllPages(t, p, "resources/list", "resources"); len(uris) < 100 {
		t.Errorf("%d resources", len(uris))
	}
}

// TestInteropMark3labsBasics calls echo and add, gets both prompts, reads
// resources resources/list names and a template filled with a completed
// value, and completes a prompt argument.
func TestInteropMark3labsBasics(t *testing.T) {
	t.Parallel()
	argv := peertest.Mark3labsEverything(t)
	call := func(tool string, args map[string]any) string {
		t.Helper()
		return toolText(t, runPeer(t, argv, "call", "tools/call", callTool(t, tool, args)).result)
	}
	if got := call("echo", map[string]any{"message": "héllo ✓"}); got != "Echo: héllo ✓" {
		t.Errorf("echo: %q", got)
	}
	if got := call("add", map[string]any{"a": 2.5, "b": 4}); got != "The sum of 2.500000 and 4.000000 is 6.500000." {
		t.Errorf("add: %q", got)
	}

	style := complete(t, argv, map[string]any{"type": "ref/prompt", "name": "complex_prompt"}, "style", "c", nil)[0]
	if got := resultText(t, runPeer(t, argv, "call", "prompts/get",
		`{"name":"complex_prompt","arguments":{"temperature":"0.3","style":"`+style+`"}}`).result); !strings.Contains(got, "temperature=0.3, style="+style) {
		t.Errorf("prompts/get complex_prompt: %q", got)
	}
	if got := resultText(t, runPeer(t, argv, "call", "prompts/get", `{"name":"simple_prompt"}`).result); got == "" {
		t.Errorf("prompts/get simple_prompt gave no text")
	}

	var listing struct {
		Resources []struct{ URI, MimeType string } `json:"resources"`
		Templates []struct{ URITemplate string }   `json:"resourceTemplates"`
	}
	decodeStdout(t, runPeer(t, argv, "resources").result, &listing)
	if len(listing.Resources) < 2 || len(listing.Templates) != 1 {
		t.Fatalf("resources: %d, templates %+v", len(listing.Resources), listing.Templates)
	}
	for _, r := range []int{0, len(listing.Resources) - 1} {
		res := listing.Resources[r]
		if c := readResource(t, argv, res.URI); res.MimeType != "" && c.MimeType != res.MimeType {
			t.Errorf("resources/read %s: %s, listed as %s", res.URI, c.MimeType, res.MimeType)
		}
	}
	tmpl := listing.Templates[0].URITemplate
	id := complete(t, argv, map[string]any{"type": "ref/resource", "uri": tmpl}, "id", "4", nil)[0]
	readResource(t, argv, strings.Replace(tmpl, "{id}", id, 1))
}

// TestInteropMark3labsProgress: progress lines in order, with the server's
// messages, for the token mcpscope sent. The server queues notifications
// apart from responses, so its last progress sometimes comes after the
// result; only what came before is printed.
func TestInteropMark3labsProgress(t *testing.T) {
	t.Parallel()
	p := runPeer(t, peertest.Mark3labsEverything(t), "call", "--progress", "tools/call",
		callTool(t, "longRunningOperation", map[string]any{"duration": 1, "steps": 4}))
	if got := toolText(t, p.result); !strings.HasPrefix(got, "Long running operation completed.") {
		t.Errorf("result %q", got)
	}
	want := progressLines(t, p, p.requests("tools/call")[0])
	if len(want) < 3 || !slices.Equal(p.diag(), want) || want[0] != "progress 1/4 Server progress 25%" {
		t.Errorf("stderr shows %q, the server sent %q", p.diag(), want)
	}
}

// TestInteropMark3labsTimeoutCancels: on 2026-07-28 over stdio a timed-out
// call is cancelled with notifications/cancelled too.
func TestInteropMark3labsTimeoutCancels(t *testing.T) {
	t.Parallel()
	p := runPeer(t, peertest.Mark3labsEverything(t), "call", "--timeout", "1s", "tools/call",
		callTool(t, "longRunningOperation", map[string]any{"duration": 10, "steps": 2}))
	p.mustExit(t, ExitTimeout)
	call := p.requests("tools/call")[0]
	if d := p.diag(); len(d) != 1 || d[0] != "error: tools/call (id "+string(call.ID)+") timed out after 1s; sent a cancellation" {
		t.Errorf("stderr %q", d)
	}
	assertCancelled(t, p, call, "timed out after 1s")
}
