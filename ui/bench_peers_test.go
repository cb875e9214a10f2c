package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestBenchTSReferenceServer benches the TypeScript reference server's
// echo from the explorer in the real program over stdio: b opens echo's
// form (message is required), its submit opens the bench, enter runs it
// through the session, and every call the run made is captured and
// answered.
func TestBenchTSReferenceServer(t *testing.T) {
	t.Parallel()
	argv := peertest.TSEverything(t, "stdio")
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: stdioDialer(argv), Target: "server-everything"})}
	probe.benchRun = screentest.LoadInTurn(20)
	tm := probe.run(t, 150, 45)
	probe.waitText(t, "MCP connected")

	sendKeys(tm, "e")
	probe.waitText(t, " · / filters")
	sendKeys(tm, "/")
	sendText(tm, "echo")
	sendKeys(tm, "enter", "b")
	probe.waitText(t, "tools/call echo", "message *", "submitting opens the bench")
	sendText(tm, "load")
	sendKeys(tm, "ctrl+s")
	probe.waitText(t, `Bench · tools/call echo {"message":"load"}`, "ready · enter runs")
	sendKeys(tm, "enter")
	s := probe.waitText(t, "done in ")
	if !strings.Contains(s, "started 20 · completed 20") || !strings.Contains(s, "errors     none") {
		t.Errorf("after the run:\n%s", s)
	}
	calls := screentest.SentRequests(store, mcp.MethodToolsCall)
	if len(calls) != 20 || !strings.Contains(string(calls[19]), `"arguments":{"message":"load"}`) {
		t.Errorf("%d tools/call captured, the last %s", len(calls), calls[len(calls)-1])
	}
	sendKeys(tm, "esc")
	probe.waitText(t, "Explorer · tools, resources, templates, prompts")
}
