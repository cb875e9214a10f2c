package ui

import "testing"

// TestTasksTSReferenceServer drives the real program against the
// TypeScript reference server over stdio: simulate-research-query requires
// task execution (2025-11-25); the explorer asks for it, shows the task's
// status while it runs, follows it to the report, and the Tasks view (T)
// lists the task completed, with the call that started it.
func TestTasksTSReferenceServer(t *testing.T) {
	t.Parallel()
	probe, tm := openTSTool(t, 45, "research", "simulate-research-query")
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
