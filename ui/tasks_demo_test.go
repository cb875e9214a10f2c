package ui

import (
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// TestTasksDemoInputRequired drives the TUI against the demo over HTTP in
// 2026-07-28: ask_name becomes a task that asks for the name through its
// inputRequests; the question is answered by keys in the same widgets as
// any other, sent with tasks/update, and the task is followed to its
// greeting; the Tasks view lists it completed.
func TestTasksDemoInputRequired(t *testing.T) {
	t.Parallel()
	url := screentest.ServeDemoHTTP(t, demo.Options{})

	f := startPeerFlow(t, url, httpTransport(url, mcphttp.ModeAuto), client.Options{}, nil)
	f.explore()
	f.callTool("ask_name", nil)
	f.probe.waitText(t, "Whom should I greet?")
	sendText(f.tm, "Ada")
	sendKeys(f.tm, "ctrl+s")
	f.answer("ask_name", "Hello, Ada!")
	sendKeys(f.tm, "esc")
	f.probe.waitText(t, "tasks/update")
	sendKeys(f.tm, "T")
	f.probe.waitText(t, "Tasks (1)", "completed", " ask_name")
	sendKeys(f.tm, "esc")
	f.quit()
}
