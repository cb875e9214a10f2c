package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// stdioDialer spawns a stdio server for each connection.
func stdioDialer(argv []string) Dialer { return dialerFor(stdioTransport(argv), client.Options{}) }

// sendKeys sends named keys to a running program.
func sendKeys(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(keyPress(k))
	}
}

// sendText types s into a running program.
func sendText(tm *teatest.TestModel, s string) {
	for _, r := range s {
		tm.Send(keyPress(string(r)))
	}
}

// TestExploreTSReferenceServer drives the real program against the
// TypeScript reference server over stdio: filter the tools to echo and
// call it through its form, read a static resource, fill and read a
// resource template, get a prompt with arguments.
func TestExploreTSReferenceServer(t *testing.T) {
	t.Parallel()
	argv := peertest.TSEverything(t, "stdio")
	store := capture.NewStore(capture.Config{})
	probe := &screenProbe{Model: New(Config{Store: store, Dial: stdioDialer(argv), Target: "server-everything"})}
	tm := probe.run(t, 150, 45)
	probe.waitText(t, "MCP connected")

	sendKeys(tm, "e")
	probe.waitScreen(t, "every list answered", func(s string) bool {
		for _, name := range []string{"Tools", "Resources", "Templates", "Prompts"} {
			if strings.Contains(s, name+" …") {
				return false
			}
		}
		return strings.Contains(s, " · / filters")
	})
	sendKeys(tm, "/")
	sendText(tm, "echo")
	sendKeys(tm, "enter")
	probe.waitText(t, "tools match", `"echo"`, "› echo (Echo Tool)", "[read-only, idempotent")
	sendKeys(tm, "enter")
	probe.waitText(t, "tools/call echo", "message *")
	sendText(tm, "hello from the explorer ✓")
	sendKeys(tm, "ctrl+s")
	probe.waitText(t, "tools/call echo · answer", "Echo: hello from the explorer ✓")

	sendKeys(tm, "esc", "2", "/")
	sendText(tm, "features")
	sendKeys(tm, "enter", "enter")
	probe.waitText(t, "resources/read demo://resource/static/document/features.md · answer", "# Everything Server - Features")

	sendKeys(tm, "esc", "3", "/")
	sendText(tm, "dynamic text")
	sendKeys(tm, "enter", "enter")
	probe.waitText(t, "resources/read demo://resource/dynamic/text/{resourceId}", "resourceId *")
	sendText(tm, "7")
	probe.waitText(t, "URI: demo://resource/dynamic/text/7")
	sendKeys(tm, "ctrl+s")
	probe.waitText(t, "resources/read demo://resource/dynamic/text/7 · answer", "Resource 7: This is a plaintext resource")

	sendKeys(tm, "esc", "4", "/")
	sendText(tm, "args")
	sendKeys(tm, "enter", "enter")
	probe.waitText(t, "prompts/get args-prompt", "city *")
	sendText(tm, "Oslo")
	sendKeys(tm, "tab")
	sendText(tm, "Nordland")
	sendKeys(tm, "ctrl+s")
	probe.waitText(t, "prompts/get args-prompt · answer", "[user] What's weather in Oslo, Nordland?")

	sendKeys(tm, "esc", "esc", "esc") // the outcome, the filter, the explorer
	probe.waitScreen(t, "the panes again", func(s string) bool { return !strings.Contains(s, "Explorer ·") })
	sendKeys(tm, "q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
	for _, method := range []string{mcp.MethodToolsCall, mcp.MethodResourcesRead, mcp.MethodPromptsGet} {
		if !hasFrame(store, capture.Out, method) {
			t.Errorf("no %s in the captured traffic", method)
		}
	}
}
