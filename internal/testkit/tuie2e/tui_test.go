package tuie2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

var (
	// streamDone is a row of the streams pane: a 1 MiB stream, finished.
	streamDone = regexp.MustCompile(`1\.0 MiB .*\bdone\b`)
	// analyzeStep is a log line of the datagrams pane once analyze is at step 5 or later.
	analyzeStep = regexp.MustCompile(`#\d+ analyze step ([5-9]|[1-9]\d+)/\d+`)
	// detailSeq and hexSeq are the titles of the detail and hex panes.
	detailSeq = regexp.MustCompile(`Detail · seq (\d+)`)
	hexSeq    = regexp.MustCompile(`Hex dump · seq (\d+)`)
	// stderrLines is the title of the stderr tab once it holds a line.
	stderrLines = regexp.MustCompile(`Stderr · [1-9]\d* lines?\b`)
	// controlFilter and initializeDetail show the traffic filtered to
	// control frames and the initialize request in the detail pane.
	controlFilter    = regexp.MustCompile(`filter "control"`)
	initializeDetail = regexp.MustCompile(`request · id \S+ · initialize`)
	// colour is an SGR sequence that sets a foreground or background
	// colour (39 and 49, the terminal's own colours, are none).
	replayEnd = regexp.MustCompile(`REPLAY ■ end · (?:\d+×|at once) · frame (\d+)/\d+`)
	colour    = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`)
)

// TestTmux runs the real mcpscope binary in tmux and drives it by keys.
// Each journey has a tmux server and a peer of its own: demo and replay run
// first, in order (replay opens the newest recording, the demo's), then the
// others at once.
func TestTmux(t *testing.T) {
	bin := buildBinary(t)
	t.Run("demo", func(t *testing.T) { testDemo(t, bin) })
	t.Run("replay", func(t *testing.T) { testReplay(t, bin) })
	for _, j := range []struct {
		name string
		run  func(*testing.T, string)
	}{
		{"stdio_ts", testStdioTS},
		{"progress_ts", testProgressTS},
		{"nocolor_80x24", testNoColor},
		{"http_ts", testHTTPTS},
		{"ws_supergateway", testWSSupergateway},
		{"gateway_stream", testGatewayStream},
		{"config_input", testConfigInput},
		{"tool_failure_ts", testToolFailureTS},
		{"demo_keys_ts", testDemoKeysTS},
		{"recorded_to", testRecordedTo},
		{"demo_first_run", testDemoFirstRun},
		{"attach_host", testAttachHost},
		{"headless_text_ts", testHeadlessTextTS},
		{"completions_ts", testCompletionsTS},
		{"image_ts", testImageTS},
		{"tasks_demo", testTasksDemo},
		{"subscriptions_log_ts", testSubscriptionsLogTS},
		{"findings_stdout", testFindingsStdout},
		{"image_kitty_ts", testImageKittyTS},
	} {
		t.Run(j.name, func(t *testing.T) {
			t.Parallel()
			j.run(t, bin)
		})
	}
}

// testDemo drives `mcpscope demo`: connect, read_file, analyze and cancel,
// the hex dump of the first control frame and its body items, the
// book_trip wizard, help, quit.
func testDemo(t *testing.T, bin string) {
	p := startPane(t, bin, "demo")
	snapshot(t, "screen-demo-traffic.txt", p.waitFor("MCP-Flow READY", "enc cbor", "result · tools/list"))

	p.keys("R")
	snapshot(t, "screen-streams.txt", p.waitMatch(streamDone))

	p.keys("a")
	snapshot(t, "screen-datagrams.txt", p.waitMatch(analyzeStep))
	p.keys("c")
	p.waitFor("$/cancel")

	p.keys("/")
	p.typeText("control")
	p.keys("Enter", "Home", "x")
	hex := p.waitUntil("the hex dump of the initialize request", func(s string) bool {
		d, h := detailSeq.FindStringSubmatch(s), hexSeq.FindStringSubmatch(s)
		return d != nil && h != nil && d[1] == h[1] &&
			controlFilter.MatchString(s) && initializeDetail.MatchString(s)
	})
	snapshot(t, "screen-hex.txt", hex)
	p.keys("]", "]")
	snapshot(t, "screen-hex-items.txt", p.waitFor(`▸   "jsonrpc": "2.0"`, "─ jsonrpc ─"))

	walkBookTrip(p)

	// ? in the explorer lists the explorer's keys, and esc closes only the help.
	p.keys("e")
	p.waitFor("interactive server: enter starts a [wizard] tool")
	p.keys("?")
	snapshot(t, "screen-help-explorer.txt", p.waitFor("Keys of Explorer", "? or esc closes help", "reload all lists"))
	p.keys("Escape")
	p.waitFor("interactive server: enter starts a [wizard] tool")
	p.escapeUntilGone("Explorer ·")

	p.keys("?")
	snapshot(t, "screen-help.txt", p.waitFor("shift+tab previous pane", "filter words"))
	p.keys("q")
	p.waitGone()
}

// walkBookTrip starts the demo's book_trip wizard from the explorer and
// answers its prompts by typing, to the completion.
func walkBookTrip(p *tmuxPane) {
	p.t.Helper()
	date := time.Now().UTC().AddDate(1, 0, 0).Format(time.DateOnly)
	p.keys("e")
	p.waitFor("interactive server: enter starts a [wizard] tool")
	p.filterTools("book_trip")
	p.keys("Enter")
	p.waitFor("Wizard · book_trip", "Where do you want to go?", "step 1 of 5")
	p.typeText("Oslo")
	p.keys("Enter")
	p.waitFor("Which class?")
	p.keys("Enter")
	snapshot(p.t, "screen-wizard-date.txt", p.waitFor("When do you leave?", "step 3 of 5"))
	p.typeText(date)
	p.keys("Enter")
	p.waitFor("How many travellers?")
	p.keys("Enter")
	p.waitFor("Book economy to Oslo on " + date + " for 1?")
	p.keys("y")
	snapshot(p.t, "screen-wizard.txt", p.waitFor("✓ completed · success", "Booked economy to Oslo on "+date))
	p.escapeUntilGone("Wizard ·")
	p.escapeUntilGone("Explorer ·")
}

// filterTools types name into the explorer's tool filter and waits for
// the list to say how many tools match it, in either number.
func (p *tmuxPane) filterTools(name string) string {
	p.t.Helper()
	p.keys("/")
	p.typeText(name)
	p.keys("Enter")
	return p.waitMatch(regexp.MustCompile(`tools match(es)? ` + regexp.QuoteMeta(strconv.Quote(name))))
}

// testStdioTS drives a stdio session against the TypeScript reference
// server: connect, tools/list, a tool called through the explorer's form,
// a raw request from the composer, the stderr tab, quit.
func testStdioTS(t *testing.T, bin string) {
	argv := append([]string{bin, "--"}, peertest.TSEverything(t, "stdio")...)
	p := startPane(t, argv...)
	p.waitFor("MCP connected", "mcp-servers/everything")

	p.keys("t")
	snapshot(t, "screen-stdio-ts.txt", p.waitFor("result · tools/list"))

	// The explorer: filter the tools, call echo through its form.
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.filterTools("echo")
	snapshot(t, "screen-explorer.txt", p.waitFor("echo (Echo Tool)"))
	p.keys("Enter")
	p.waitFor("tools/call echo", "message *")
	p.typeText("typed in tmux")
	p.keys("C-s")
	snapshot(t, "screen-explorer-answer.txt", p.waitFor("tools/call echo · answer", "Echo: typed in tmux"))
	p.escapeUntilGone("Explorer ·")

	// The composer: a raw resources/list request.
	p.keys(":")
	p.typeText("resources/list")
	p.keys("Enter")
	p.keys("C-s")
	snapshot(t, "screen-composer.txt", p.waitFor("Compose · sent request resources/list", `"resources"`))
	p.escapeUntilGone("Compose ·")

	p.keys("BTab")
	p.waitMatch(stderrLines)
	p.waitFor("Starting default (STDIO) server")
	p.keys("q")
	p.waitGone()
}

// testNoColor runs the demo with NO_COLOR=1 at 80×24: the hint bar keeps ?
// and q, the selected traffic row is in reverse video and no colour is
// drawn; 2 jumps to the streams pane.
func testNoColor(t *testing.T, bin string) {
	p := startPaneSized(t, "80", "24", "env", "NO_COLOR=1", bin, "demo")
	snapshot(t, "screen-80x24.txt", p.waitFor("MCP-Flow READY", "result · tools/list", "? help", "q quit"))
	styled := p.styledScreen()
	selected := false // following, the last frame is selected: the tools/list result
	for _, l := range strings.Split(styled, "\n") {
		selected = selected || strings.Contains(l, "result · tools/list") && strings.HasPrefix(l, "\x1b[7m")
	}
	if !selected {
		t.Errorf("the selected row is not in reverse video:\n%q", styled)
	}
	if colour.MatchString(styled) {
		t.Errorf("colours are drawn under NO_COLOR: %q", colour.FindString(styled))
	}
	p.keys("2")
	p.waitFor("Execution streams ·")
	p.keys("q")
	p.waitGone()
}

// testReplay opens the demo session just recorded (the TUI records every
// session into the state directory) from `mcpscope replay`'s list: the
// read_file stream, the analyze datagrams and the wizard are there as
// they were live;
// B goes back to the start, . steps one frame, E to the end, q quits.
func testReplay(t *testing.T, bin string) {
	p := startPane(t, bin, "replay")
	p.waitFor("Recordings in ", "frames", "ended")
	p.keys("Enter")
	snapshot(t, "screen-replay.txt", p.waitMatch(replayEnd))
	p.waitFor("interaction.complete", "$/shutdown", "1.0 MiB", "#4 analyze step 5/50")
	p.keys("B")
	p.waitFor("REPLAY ⏸ paused · 1× · frame 0/", "no frames yet")
	p.keys(".")
	p.waitFor("REPLAY ⏸ paused · 1× · frame 1/")
	p.keys("E")
	p.waitMatch(replayEnd)
	p.keys("t")
	p.waitFor("replay: read-only")
	p.keys("q")
	p.waitGone()
}
