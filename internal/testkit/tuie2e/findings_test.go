package tuie2e

import (
	"regexp"
	"strings"
	"testing"
)

// stdoutGroup is the Findings view's group of stdout-not-json, unfolded,
// with its count.
var stdoutGroup = regexp.MustCompile(`▾ error +stdout-not-json +1 +a line on the server's stdout is not JSON`)

// stdoutFinding is the Findings view's row of the line the server printed
// on stdout, its escape sequences shown escaped.
var stdoutFinding = regexp.MustCompile(`frame (\d+) +a line on stdout is not JSON: "Hello \\x1b\]0;pwned\\x07from a \\x1b\[31mserver`)

// testFindingsStdout runs the demo over stdio behind a shell that first
// prints a line that is not JSON, with escape sequences in it, on stdout:
// the traffic marks the frame, the status bar counts one error, ! groups
// the finding under stdout-not-json with the line escaped (the pane's
// title stays mcpscope's), and enter on it shows its frame in the hex
// pane.
func testFindingsStdout(t *testing.T, bin string) {
	script := `printf 'Hello \033]0;pwned\007from a \033[31mserver\033[0m that logs to stdout\n'; exec "$0" serve --stdio`
	p := startPane(t, bin, "--", "sh", "-c", script, bin)
	p.waitFor("MCP connected", "! decode error: server wrote a non-JSON", "result · initialize", " 1 error")

	p.keys("!")
	s := p.waitMatch(stdoutGroup)
	m := stdoutFinding.FindStringSubmatch(p.waitMatch(stdoutFinding))
	if title, err := p.tmux("display-message", "-p", "-t", p.name, "#{pane_title}"); err != nil || !strings.HasPrefix(title, "mcpscope ") {
		t.Errorf("the server's line set the pane's title (%v): %q\n%s", err, title, s)
	}
	p.keys("Down", "Enter")
	p.waitFor("Hex dump · seq "+m[1]+" · ", "48 65 6c 6c 6f 20 1b 5d", "|Hello .]|")
	p.escapeUntilGone("Findings")
	p.keys("q")
	p.waitGone()
}
