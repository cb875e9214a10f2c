package ui

import (
	"regexp"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// liveWithUpdates matches a Subscriptions row that is live with at least
// one update.
func liveWithUpdates(uri string) *regexp.Regexp {
	return regexp.MustCompile(`● live +[1-9][0-9]* +\d\d:\d\d:\d\d\.\d{3} +\S+ .*` + regexp.QuoteMeta(uri))
}

// subscribeInExplorer subscribes to the resource named name (its URI
// uri) from the explorer's Resources tab, and sees the note and the mark.
func (f *questionFlow) subscribeInExplorer(name, uri, how string) {
	f.t.Helper()
	f.explore()
	sendKeys(f.tm, "2", "/")
	sendText(f.tm, name)
	sendKeys(f.tm, "enter")
	f.probe.waitText(f.t, "› "+name)
	sendKeys(f.tm, "s")
	f.probe.waitText(f.t, "subscribed to "+uri+" ("+how, "› ● "+name)
}

// TestSubscriptionsTS subscribes to a document of the TypeScript
// reference server from the explorer (resources/subscribe), makes the
// server send updates with toggle-subscriber-updates, and sees the
// Subscriptions view count them; r reads it again, u unsubscribes, l
// filters the traffic to its updates.
func TestSubscriptionsTS(t *testing.T) {
	t.Parallel()
	const uri = "demo://resource/static/document/architecture.md"
	f := startQuestionFlow(t, peertest.TSEverything(t, "stdio"), "", nil)
	f.subscribeInExplorer("architecture.md", uri, "resources/subscribe")
	sendKeys(f.tm, "esc", "1")
	f.callTool("toggle-subscriber-updates", nil)
	f.answer("toggle-subscriber-updates")
	sendKeys(f.tm, "esc", "S")
	f.probe.waitScreen(t, "a live subscription with an update", liveWithUpdates(uri).MatchString)
	sendKeys(f.tm, "r")
	f.probe.waitText(t, "Subscriptions · resources/read "+uri, "Everything Server")
	sendKeys(f.tm, "esc", "u")
	f.probe.waitText(t, "unsubscribed from "+uri, "○ off")
	sendKeys(f.tm, "l")
	f.probe.waitText(t, `filter "notifications/resources/updated uri:demo://resource/`)
	f.quit()
}

// TestLogViewTS asks the TypeScript reference server for every level with
// v in the Log view (logging/setLevel), turns its simulated logging on,
// and sees the first message it sends in the view.
func TestLogViewTS(t *testing.T) {
	t.Parallel()
	f := startQuestionFlow(t, peertest.TSEverything(t, "stdio"), "", nil)
	sendKeys(f.tm, "L")
	f.probe.waitText(t, "Log · the server's log messages", "no log message yet")
	sendKeys(f.tm, "v")
	f.probe.waitText(t, "logging/setLevel answered", "asked the server for debug")
	sendKeys(f.tm, "esc")
	f.explore()
	f.callTool("toggle-simulated-logging", nil)
	f.answer("toggle-simulated-logging")
	sendKeys(f.tm, "esc", "L")
	f.probe.waitScreen(t, "a simulated log message", regexp.MustCompile(`\d\d:\d\d:\d\d\.\d{3} \w+ +\S*-level message`).MatchString)
	f.quit()
}

// TestSubscriptionsConformanceListen subscribes to the Go SDK conformance
// server's watched resource over Streamable HTTP in 2026-07-28: a
// subscriptions/listen stream of its own, its updates (every 3 s) counted
// in the view; u cancels it. The Log view marks logging deprecated, and v
// sets the level for the requests that follow.
func TestSubscriptionsConformanceListen(t *testing.T) {
	t.Parallel()
	const uri = "test://watched-resource"
	f := startHTTPFlow(t, peertest.StartGoSDKConformanceHTTP(t, true), mcphttp.ModeAuto, client.Options{}, nil)
	f.subscribeInExplorer("watched-resource", uri, "subscriptions/listen #")
	sendKeys(f.tm, "esc", "esc", "S")
	f.probe.waitScreen(t, "a live subscription with an update", liveWithUpdates(uri).MatchString)
	sendKeys(f.tm, "u")
	f.probe.waitText(t, "unsubscribed from "+uri, "○ off")
	sendKeys(f.tm, "esc", "L")
	f.probe.waitText(t, "deprecated: logging is deprecated as of 2026-07-28 (SEP-2577)")
	sendKeys(f.tm, "v")
	f.probe.waitText(t, "2026-07-28 has no logging/setLevel", "asked the server for debug")
	f.quit()
}
