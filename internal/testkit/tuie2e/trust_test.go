package tuie2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
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
	// listsAnswered is the explorer's tab bar once no list is loading.
	listsAnswered = regexp.MustCompile(`1 Tools [^…\n]*2 Resources [^…\n]*3 Templates [^…\n]*4 Prompts [^…\s]`)
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
// traffic row reads as a failure in another ink than a plain result's and
// than the probes', and the error filter lists the failed result and no
// probe.
func testToolFailureTS(t *testing.T, bin string) {
	p := startTSStdio(t, bin)
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.filterTools("resource-reference")
	p.keys("Enter")
	p.waitFor("tools/call get-resource-reference", "resourceId")
	p.keys("Tab", "BSpace")
	p.typeText("0")
	p.keys("C-s")
	s := p.waitFor("Invalid resourceId: 0.")
	if !strings.Contains(s, "tools/call get-resource-reference · failed") || !strings.Contains(s, `failed (isError): Invalid resourceId: 0.`) {
		t.Errorf("the explorer does not say the call failed:\n%s", s)
	}
	p.escapeUntilGone("Explorer ·")

	// Home selects the first row: the rows compared are drawn in their own ink.
	p.keys("Home")
	s = p.waitFor("result · initialize")
	if !strings.Contains(s, "result ✗ isError: Invalid resourceId: 0.") {
		t.Errorf("the traffic has no failed tools/call result:\n%s", s)
	}
	styled := p.styledScreen()
	failed, plain, probe := inkOf(styled, "result ✗ isError"), inkOf(styled, "result · initialize"), inkOf(styled, "probe: server speaks 2025-11-25")
	if failed == plain {
		t.Errorf("the failed tool result is drawn as a plain result (%q):\n%q", failed, styled)
	}
	if probe == "" || probe == failed {
		t.Errorf("the probe's answer is not drawn apart from a failure (probe %q, failure %q):\n%q", probe, failed, styled)
	}

	p.keys("/")
	p.typeText("error")
	p.keys("Enter")
	s = p.waitMatch(regexp.MustCompile(`filter "error" · \d+ match`))
	if !strings.Contains(s, `filter "error" · 1 match`) || !strings.Contains(s, "result ✗ isError: Invalid resourceId: 0.") {
		t.Errorf("the error filter does not list the failed result alone:\n%s", s)
	}
	if strings.Contains(s, "probe:") || strings.Contains(s, "server/discover") || errorRow.MatchString(s) {
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
// the status line says why it does nothing and nothing is sent (the next
// round trip, tools/list, is the only traffic after it); the help lists no
// demo key and the hint bar names only the panes there are.
func testDemoKeysTS(t *testing.T, bin string) {
	p := startTSStdio(t, bin)
	before := frameCount(t, p.waitMatch(trafficFrames))

	p.keys("R")
	s := p.waitUntil("why R does nothing, or its read_file", func(s string) bool {
		return strings.Contains(s, "only under `mcpscope demo`") || strings.Contains(s, "tools/call read_file")
	})
	if !strings.Contains(s, "R: the demo's read_file, only under `mcpscope demo`") {
		t.Errorf("the status line does not say why R does nothing:\n%s", s)
	}
	p.keys("t")
	s = p.waitFor("result · tools/list")
	if n := frameCount(t, s); n != before+2 {
		t.Errorf("traffic went from %d to %d frames over R and tools/list, want %d:\n%s", before, n, before+2, s)
	}
	if strings.Contains(s, "tools/call read_file") {
		t.Errorf("R called read_file:\n%s", s)
	}
	if !strings.Contains(s, "1,4-6 pane") {
		t.Errorf("the hint bar does not name the panes there are (1,4-6):\n%s", s)
	}

	p.keys("?")
	s = p.waitFor("Keys of mcpscope")
	for _, demo := range []string{"read_file", "analyze", "tone (audio)"} {
		if strings.Contains(s, demo) {
			t.Errorf("the help lists the demo's %s:\n%s", demo, s)
		}
	}
	p.escapeUntilGone("Keys of mcpscope")
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
// default: once the TUI has closed, the terminal says where it recorded
// and how to replay it, the file is there, in the state directory, and
// the help named the same file.
func testRecordedTo(t *testing.T, bin string) {
	p := startTSStdio(t, bin)
	p.remainOnExit()
	p.keys("?")
	p.waitFor("Keys of mcpscope")
	help, _ := p.history()
	p.escapeUntilGone("Keys of mcpscope")
	p.keys("q")
	m := recordedTo.FindStringSubmatch(p.waitCapture("the exit line", p.history, recordedTo.MatchString))
	path := m[1]
	if m[2] != path {
		t.Errorf("the exit line names %s and replays %s", path, m[2])
	}
	if h := recordingTo.FindStringSubmatch(help); h == nil || h[1] != path {
		t.Errorf("the help does not name the recording %s:\n%s", path, help)
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
	noFailure(t, "the first screen", p.waitFor("MCP-Flow READY", "result · tools/list"))

	p.keys("e")
	s := p.waitMatch(listsAnswered)
	if !demoLists.MatchString(s) {
		t.Errorf("a list of the demo failed or is empty:\n%s", s)
	}
	p.keys("3")
	s = p.waitFor("[3 Templates")
	if !strings.Contains(s, "1 template · / filters") || !strings.Contains(s, "template://{category}/{toolchain}/{variant}") {
		t.Errorf("the demo's templates are not listed:\n%s", s)
	}
	p.escapeUntilGone("Explorer ·")
	noFailure(t, "the traffic after the explorer's lists", p.waitFor("resources/templates/list"))

	p.keys("/")
	p.typeText("error")
	p.keys("Enter")
	if s := p.waitMatch(regexp.MustCompile(`filter "error" · \d+ match`)); !strings.Contains(s, `filter "error" · 0 matches`) {
		t.Errorf("the error filter finds failures in the demo's own traffic:\n%s", s)
	}
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
