package tuie2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// testImageTS calls the TypeScript reference's get-tiny-image from the
// explorer: the answer shows its size and a picture in half blocks; W
// saves it under the name it offers, in the working directory.
func testImageTS(t *testing.T, bin string) {
	dir := t.TempDir()
	p := startPaneIn(t, dir, append([]string{bin, "--"}, peertest.TSEverything(t, "stdio")...)...)
	callTinyImage(p)
	p.waitFor("tools/call get-tiny-image · answer", "20×20", "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀")
	p.keys("W")
	p.waitFor("save image to: content-1.png")
	p.keys("Enter")
	p.waitFor("saved 3.9 KiB to content-1.png")
	if fi, err := os.Stat(filepath.Join(dir, "content-1.png")); err != nil || fi.Size() == 0 {
		t.Errorf("content-1.png: %v", err)
	}
	p.escapeUntilGone("Explorer ·")
	p.keys("q")
	p.waitGone()
}

// testImageKittyTS calls get-tiny-image with MCPSCOPE_IMAGES=kitty: the
// explorer's answer draws the picture as kitty placeholder cells and the
// program sends the image once, with a virtual placement (U=1), as the
// pane's raw output (piped to a file) shows.
func testImageKittyTS(t *testing.T, bin string) {
	raw := filepath.Join(t.TempDir(), "raw")
	p := startPane(t, append([]string{"env", "MCPSCOPE_IMAGES=kitty", bin, "--"}, peertest.TSEverything(t, "stdio")...)...)
	if out, err := p.tmux("pipe-pane", "-o", "-t", p.name, "cat >>'"+raw+"'"); err != nil {
		t.Fatalf("pipe-pane: %v\n%s", err, out)
	}
	callTinyImage(p)
	p.waitFor("tools/call get-tiny-image · answer", "20×20")
	cell := string(kitty.Placeholder) + string(kitty.Diacritic(0)) + string(kitty.Diacritic(0))
	p.waitCapture("a kitty transmit and placeholder cells in the raw output", func() (string, error) {
		b, err := os.ReadFile(raw)
		return string(b), err
	}, func(out string) bool {
		return kittyTransmits(out) > 0 && strings.Contains(out, cell)
	})
	p.escapeUntilGone("Explorer ·")
	p.keys("q")
	p.waitGone()
	b, _ := os.ReadFile(raw)
	if n := kittyTransmits(string(b)); n != 1 {
		t.Errorf("%d kitty transmits of the image, want 1", n)
	}
}

// kittyTransmits counts the kitty graphics transmissions (a=T, their
// first chunk) with a virtual placement for Unicode placeholders (U=1).
func kittyTransmits(out string) int {
	n := 0
	for _, m := range kittyCommand.FindAllStringSubmatch(out, -1) {
		keys := strings.Split(m[1], ",")
		if slices.Contains(keys, "a=T") && slices.Contains(keys, "U=1") {
			n++
		}
	}
	return n
}

// kittyCommand is a kitty graphics command's keys.
var kittyCommand = regexp.MustCompile("\x1b_G([^;\x1b]*)")

// callTinyImage calls the TypeScript reference's get-tiny-image from the
// explorer, once the pane is connected.
func callTinyImage(p *tmuxPane) {
	p.waitFor("MCP connected")
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.filterTools("get-tiny-image")
	p.waitFor("get-tiny-image")
	p.keys("Enter")
	p.waitFor("tools/call get-tiny-image")
	p.keys("C-s")
}
