package tuie2e

import (
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// testCompletionsTS fills completable-prompt of the TypeScript reference
// server from its suggestions: the department from the list under the
// field, then a name the server suggests for that department (sent as
// context), and gets the prompt.
func testCompletionsTS(t *testing.T, bin string) {
	argv := append([]string{bin, "--"}, peertest.TSEverything(t, "stdio")...)
	p := startPane(t, argv...)
	p.waitFor("MCP connected")
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.keys("4", "/")
	p.typeText("completable")
	p.keys("Enter", "Enter")
	p.waitFor("prompts/get completable-prompt", "department")
	p.typeText("S")
	p.waitFor("▸ Sales", "  Support")
	p.keys("Down", "Enter", "Tab")
	p.waitFor("> Support", "▸ John", "  Kim", "  Lee")
	p.keys("Down", "Tab")
	p.waitFor("> Kim")
	p.keys("C-s")
	p.waitFor("prompts/get completable-prompt · answer", "Kim", "Support")
	p.escapeUntilGone("Explorer ·")
	p.keys("q")
	p.waitGone()
}
