package ui

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// TestExploreStructuredContentTS calls the TypeScript reference's
// get-structured-content from the explorer: the outcome shows its
// structuredContent under the text, that the text is the same JSON, and
// that it passes the tool's outputSchema.
func TestExploreStructuredContentTS(t *testing.T) {
	t.Parallel()
	probe, tm := openTSTool(t, 60, "get-structured-content", "› get-structured-content")
	probe.waitText(t, "tools/call get-structured-content", "location *")
	sendKeys(tm, "right", "space")
	probe.waitText(t, "(•)")
	sendKeys(tm, "ctrl+s")
	probe.waitText(t, "tools/call get-structured-content · answer", "── structuredContent ──",
		"content[0] text is the same JSON as structuredContent", "valid against outputSchema")
	sendKeys(tm, "esc", "esc", "esc")
	sendKeys(tm, "q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
}

// openTSTool runs the program against the TypeScript reference server
// over stdio, 150 columns by h rows, filters the explorer's tools to
// filter and, once listed shows, opens the form of the tool selected.
func openTSTool(t *testing.T, h int, filter, listed string) (*screenProbe, *teatest.TestModel) {
	t.Helper()
	argv := peertest.TSEverything(t, "stdio")
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: stdioDialer(argv), Target: "server-everything"})}
	tm := probe.run(t, 150, h)
	probe.waitText(t, "MCP connected")
	sendKeys(tm, "e")
	probe.waitText(t, " · / filters")
	sendKeys(tm, "/")
	sendText(tm, filter)
	sendKeys(tm, "enter")
	probe.waitText(t, listed)
	sendKeys(tm, "enter")
	return probe, tm
}
