package tuie2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/peertest"
)

var (
	// trafficFrames is the traffic pane's title with its frame count.
	trafficFrames = regexp.MustCompile(`Traffic · (\d+) frames`)
	// lineInk is the run of SGR sequences a line of the screen starts with.
	lineInk = regexp.MustCompile(`^(?:\x1b\[[0-9;]*m)+`)
	// recordedTo is the line the TUI prints on exit, and recordingTo the
	// help's line, each naming the recording.
	recordedTo  = regexp.MustCompile(`recorded to (\S+) · mcpscope replay (\S+)`)
	recordingTo = regexp.MustCompile(`recording to (\S+)`)
	// demoLists is the explorer's tab bar once the demo answered all four
	// lists, each with a count and none failed (a failed list's count ends
	// in !).
	demoLists = regexp.MustCompile(`1 Tools [1-9]\d*[\] ].*2 Resources [1-9]\d*[\] ].*3 Templates [1-9]\d*[\] ].*4 Prompts [1-9]\d*[\] ]`)
	// errorRow is the text of an error response's row.
	errorRow = regexp.MustCompile(`error -?\d+ `)
)

// startTSStdio runs the TUI against the TypeScript reference server over
// stdio and waits for the session to settle: the server's roots/list
// answered and the log line it sends after it.
func startTSStdio(t *testing.T, bin string) *tmuxPane {
	t.Helper()
	p := startPane(t, append([]string{bin, "--"}, peertest.TSEverything(t, "stdio")...)...)
	p.waitFor("MCP connected", "mcp-servers/everything", "result · roots/list", "notifications/message")
	return p
}

// testToolFailureTS calls a tool of the TypeScript reference server from
// the explorer with an argument it refuses (get-resource-reference with
// resourceId 0 answers isError: true): the answer says it failed, the
// traffic row reads as a failure in the error colour while the probes'
// rows are not in it, and the error filter lists the failed result and no
// probe.
func testToolFailureTS(t *testing.T, bin string) {
	p := startTSStdio(t, bin)
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.keys("/")
	p.typeText("resource-reference")
	p.keys("Enter")
	p.waitFor(`tools matches "resource-reference"`)
	p.keys("Enter")
	p.waitFor("tools/call get-resource-reference", "resourceId")
	p.keys("Tab", "BSpace")
	p.typeText("0")
	p.keys("C-s")
	p.waitFor("tools/call get-resource-reference · failed", `failed (isError): Invalid resourceId: 0.`)
	p.escapeUntilGone("Explorer ·")

	// Home selects the first row: the rows compared are drawn in their own ink.
	p.keys("Home")
	p.waitFor("result ✗ isError: Invalid resourceId: 0.", "probe: server speaks 2025-11-25")
	styled := p.styledScreen()
	failed, plain, probe := inkOf(styled, "result ✗ isError"), inkOf(styled, "result · initialize"), inkOf(styled, "probe: server speaks")
	if failed == plain {
		t.Errorf("the failed tool result is drawn as a plain result (%q):\n%q", failed, styled)
	}
	if probe == failed {
		t.Errorf("the probe's answer is drawn in the failure's ink (%q):\n%q", probe, styled)
	}

	p.keys("/")
	p.typeText("error")
	p.keys("Enter")
	s := p.waitFor(`filter "error" · 1 match`, "result ✗ isError: Invalid resourceId: 0.")
	if strings.Contains(s, "probe:") {
		t.Errorf("the error filter lists a probe:\n%s", s)
	}
	p.keys("q")
	p.waitGone()
}

// inkOf returns the SGR sequences that start the first line of the styled
// screen holding text ("" when none does).
func inkOf(styled, text string) string {
	for _, l := range strings.Split(styled, "\n") {
		if strings.Contains(l, text) {
			return lineInk.FindString(l)
		}
	}
	return ""
}

// testDemoKeysTS presses the demo's R against the TypeScript reference:
// nothing is sent (the next round trip, tools/list, is the only traffic
// after it) and the status line says why; the help lists no demo key and
// the hint bar names only the panes there are.
func testDemoKeysTS(t *testing.T, bin string) {
	p := startTSStdio(t, bin)
	s := p.waitFor("1,4-6 pane")
	if strings.Contains(s, "1-6 pane") {
		t.Errorf("the hint bar names panes there are not:\n%s", s)
	}
	before := frameCount(t, s)

	p.keys("R")
	p.waitFor("R: sends the demo's read_file, and this server is not the demo")
	p.keys("t")
	s = p.waitFor("result · tools/list")
	if n := frameCount(t, s); n != before+2 {
		t.Errorf("traffic went from %d to %d frames over R and tools/list, want %d:\n%s", before, n, before+2, s)
	}
	if strings.Contains(s, "tools/call read_file") {
		t.Errorf("R called read_file:\n%s", s)
	}

	p.keys("?")
	s = p.waitFor("Keys of mcpscope", "? or esc closes help")
	for _, demo := range []string{"read_file", "analyze", "tone (audio)"} {
		if strings.Contains(s, demo) {
			t.Errorf("the help lists the demo's %s:\n%s", demo, s)
		}
	}
	p.keys("Escape")
	p.waitFor("1,4-6 pane")
	p.keys("q")
	p.waitGone()
}

// frameCount reads the traffic pane's frame count off the screen.
func frameCount(t *testing.T, screen string) int {
	t.Helper()
	m := trafficFrames.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no frame count on the screen:\n%s", screen)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// testRecordedTo quits a session of the TypeScript reference recorded by
// default: the help names the recording, and once the TUI has closed the
// terminal says where it recorded and how to replay it, and the file is
// there, in the state directory.
func testRecordedTo(t *testing.T, bin string) {
	p := startTSStdio(t, bin)
	p.remainOnExit()
	p.keys("?")
	help := recordingTo.FindStringSubmatch(p.waitCapture("the help's recording line", p.history, recordingTo.MatchString))
	p.keys("Escape")
	p.waitFor("? help")
	p.keys("q")
	m := recordedTo.FindStringSubmatch(p.waitCapture("the exit line", p.history, recordedTo.MatchString))
	path := m[1]
	if m[2] != path || help[1] != path {
		t.Errorf("the exit line names %s and replays %s, the help said %s", path, m[2], help[1])
	}
	if dir := os.Getenv("XDG_STATE_HOME"); !strings.HasPrefix(path, dir+string(filepath.Separator)) {
		t.Errorf("recorded to %s, outside the state directory %s", path, dir)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Errorf("the recording named on exit is not there: %v", err)
	}
}

// testDemoFirstRun opens the demo and its explorer: every list loads (the
// templates too), and neither the first screen nor the traffic after the
// lists shows a failure of the demo's own.
func testDemoFirstRun(t *testing.T, bin string) {
	p := startPane(t, bin, "demo")
	first := p.waitFor("MCP-Flow READY", "result · tools/list")
	noFailure(t, "the first screen", first)

	p.keys("e")
	p.waitMatch(demoLists)
	p.keys("3")
	p.waitFor("1 template · / filters", "template://{category}/{toolchain}/{variant}")
	p.escapeUntilGone("Explorer ·")
	noFailure(t, "the traffic after the explorer's lists", p.waitFor("result · resources/templates/list"))

	p.keys("/")
	p.typeText("error")
	p.keys("Enter")
	p.waitFor(`filter "error" · 0 matches`)
	p.keys("q")
	p.waitGone()
}

// noFailure fails the test when screen shows a failed row: a failed tool
// result or an error response.
func noFailure(t *testing.T, what, screen string) {
	t.Helper()
	if strings.Contains(screen, "✗") || errorRow.MatchString(screen) {
		t.Errorf("%s shows a failure:\n%s", what, screen)
	}
}
