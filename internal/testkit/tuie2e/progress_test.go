package tuie2e

import (
	"regexp"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// explorerProgress is the explorer's waiting view with a progress bar of
// trigger-long-running-operation (5 steps).
var explorerProgress = regexp.MustCompile(`[▌░]+ +\d+% [1-4]/5`)

// testProgressTS calls trigger-long-running-operation from the explorer
// against the TypeScript reference server at 160×45: the waiting view
// shows its progress bar while the traffic beside it shows the reports;
// the cancel key marks the request cancelled in the traffic.
func testProgressTS(t *testing.T, bin string) {
	argv := append([]string{bin, "--"}, peertest.TSEverything(t, "stdio")...)
	p := startPane(t, argv...)
	p.waitFor("MCP connected", "mcp-servers/everything")

	p.keys("e")
	p.waitFor(" tools · / filters")
	p.filterTools("long-running")
	p.waitFor("── input schema ──")
	p.keys("Enter")
	p.waitFor("tools/call trigger-long-running-operation", "duration")
	p.keys("C-s")
	s := p.waitUntil("the progress bar beside the traffic", func(s string) bool {
		return explorerProgress.MatchString(s) && regexp.MustCompile(`notifications/progress`).MatchString(s) &&
			regexp.MustCompile(`Traffic · \d+ frames`).MatchString(s)
	})
	snapshot(t, "screen-explorer-progress.txt", s)

	p.keys("C-x")
	snapshot(t, "screen-cancelled.txt", p.waitFor("✕ cancelled", "notifications/cancelled"))
	p.escapeUntilGone("Explorer ·")
	p.keys("q")
	p.waitGone()
}
