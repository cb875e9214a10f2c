package tuie2e

import (
	"regexp"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// echoRow is the echo tool's row of the TypeScript reference's tools
// table.
var echoRow = regexp.MustCompile(`(?m)^echo +Echo Tool +Echoes back the input string$`)

// testHeadlessTextTS runs `mcpscope tools` and a tools/call at a real
// terminal 100 columns wide: the tools print as a table that fits it, the
// image as one line and a picture in half blocks; piped into cat, the
// same listing is JSON.
func testHeadlessTextTS(t *testing.T, bin string) {
	ts := peertest.TSEverything(t, "stdio")
	script := `"$0" tools -- "$@"; "$0" call tools/call '{"name":"get-tiny-image"}' -- "$@"; "$0" tools -- "$@" | cat; echo "mcpscope exited $?"`
	p := startPaneSized(t, "100", "60", append([]string{"sh", "-c", script, bin}, ts...)...)
	p.remainOnExit()
	p.waitFor("mcpscope exited ")
	screen, err := p.history()
	if err != nil {
		t.Fatalf("capturing the pane: %v\n%s", err, screen)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^NAME +TITLE +DESCRIPTION$`), echoRow,
		regexp.MustCompile(`(?m)^\[image image/png 20×20 \d+(\.\d)? KiB\]$`),
		regexp.MustCompile(`(?m)^The image above is the MCP logo\.\n(▀{20}\n){10}`), // in half blocks: tmux passes no pictures on
		regexp.MustCompile(`(?m)^\{"tools":\[\{"name":"echo"`),
		regexp.MustCompile(`mcpscope exited 0`),
	} {
		if !want.MatchString(screen) {
			t.Errorf("the pane does not match %s:\n%s", want, screen)
		}
	}
}
