package ui

import (
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// TestTasksTSReferenceServer drives the real program against the
// TypeScript reference server over stdio: simulate-research-query requires
// task execution (2025-11-25); the explorer asks for it, shows the task's
// status while it runs, follows it to the report, and the Tasks view (T)
// lists the task completed, with the call that started it.
func TestTasksTSReferenceServer(t *testing.T) {
	t.Parallel()
	argv := peertest.TSEverything(t, "stdio")
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: stdioDialer(argv), Target: "server-everything"})}
	tm := probe.run(t, 150, 45)
	probe.waitText(t, "MCP connected")

	sendKeys(tm, "e")
	probe.waitText(t, " · / filters")
	sendKeys(tm, "/")
	sendText(tm, "research")
	sendKeys(tm, "enter")
	probe.waitText(t, "simulate-research-query")
	sendKeys(tm, "enter")
	probe.waitText(t, "tools/call simulate-research-query", "topic *")
	sendText(tm, "go")
	sendKeys(tm, "ctrl+s")
	probe.waitText(t, " working: ", "…")
	probe.waitText(t, "tools/call simulate-research-query · answer", "Research Report: go")

	sendKeys(tm, "esc", "esc", "esc")
	probe.waitText(t, "MCP connected")
	sendKeys(tm, "T")
	probe.waitText(t, "Tasks (1)", "completed", " simulate-research")
}
