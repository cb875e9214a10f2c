package tuie2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// testImageTS calls the TypeScript reference's get-tiny-image from the
// explorer: the answer shows its size and a picture in half blocks; W
// saves it under the name it offers, in the working directory.
func testImageTS(t *testing.T, bin string) {
	dir := t.TempDir()
	p := startPaneIn(t, dir, append([]string{bin, "--"}, peertest.TSEverything(t, "stdio")...)...)
	p.waitFor("MCP connected")
	p.keys("e")
	p.waitFor(" tools · / filters")
	p.filterTools("get-tiny-image")
	p.waitFor("get-tiny-image")
	p.keys("Enter")
	p.waitFor("tools/call get-tiny-image")
	p.keys("C-s")
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
