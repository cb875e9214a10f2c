package tuie2e

import (
	"regexp"
	"strconv"
	"testing"
)

// subscribedRow is the Subscriptions view's row of the reference server's
// architecture.md, live, with its update count.
var subscribedRow = regexp.MustCompile(`● live +(\d+) +\d\d:\d\d:\d\d\.\d+ +resources/subscribe +demo://resource/static/document/architec`)

// testSubscriptionsLogTS subscribes to a resource of the TypeScript
// reference server from the explorer and has the server send updates
// (toggle-subscriber-updates: one at once, then one every 5 s): S lists
// the resource live with an update count that grows. L shows the server's
// log lines, the one about the subscription among them; + raises the
// level shown and v asks the server for it (logging/setLevel).
func testSubscriptionsLogTS(t *testing.T, bin string) {
	const uri = "demo://resource/static/document/architecture.md"
	p := startTSStdio(t, bin)
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.keys("2")
	p.waitFor("› architecture.md")
	p.keys("s")
	p.waitFor("› ● architecture.md", "subscribed to "+uri+" (resources/subscribe)")
	p.keys("1")
	p.filterTools("toggle-subscriber-updates")
	p.keys("Enter")
	p.waitFor("tools/call toggle-subscriber-updates", "No arguments.")
	p.keys("C-s")
	p.waitFor("tools/call toggle-subscriber-updates · answer", "Started simulated resource updated notifications")
	p.escapeUntilGone("Explorer ·")

	p.keys("S")
	first, _ := strconv.Atoi(subscribedRow.FindStringSubmatch(p.waitMatch(subscribedRow))[1])
	p.waitUntil("the update count past "+strconv.Itoa(first), func(s string) bool {
		m := subscribedRow.FindStringSubmatch(s)
		n := 0
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		return n > first
	})
	p.escapeUntilGone("Subscriptions ·")

	p.keys("L")
	p.waitFor("Log · the server's log messages", "level ≥ debug",
		"info     [everything-server] Roots updated", "info     Received Subscribe Resource request for URI: demo://resource/")
	p.keys("+")
	p.waitFor("level ≥ info")
	p.keys("v")
	p.waitFor("asked the server for info", "logging/setLevel answered")
	p.escapeUntilGone("Log ·")
	p.keys("q")
	p.waitGone()
}
