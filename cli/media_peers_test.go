package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// pictureStandIn is a stand-in terminal that shows pictures in protocol
// (media.ParseProtocol).
type pictureStandIn struct {
	stdoutTerminal
	protocol string
}

// PictureProtocol makes pictureStandIn a pictureTerminal.
func (p *pictureStandIn) PictureProtocol() string { return p.protocol }

// mcpscopeShowingPictures runs mcpscope with stdout a terminal of width
// cells that shows pictures in protocol.
func mcpscopeShowingPictures(t *testing.T, protocol string, width int, args ...string) result {
	t.Helper()
	out := &pictureStandIn{stdoutTerminal: stdoutTerminal{width: width}, protocol: protocol}
	return runWith(t, out, args...)
}

// The TypeScript reference's 20×20 image, at a terminal: its line says
// its size, and the picture follows the text in half blocks (10 rows of
// 20 cells) or in the kitty graphics protocol; get-annotated-message's
// image likewise. At a terminal that shows none, only the line.
func TestPicturesAtATerminalTS(t *testing.T) {
	t.Parallel()
	ts := peertest.TSEverything(t, "stdio")
	r := mcpscopeShowingPictures(t, "blocks", 100, withTarget(ts, "tool", "get-tiny-image")...)
	r.mustExit(t, ExitOK)
	text, picture, _ := strings.Cut(r.stdout, "The image above is the MCP logo.\n")
	if !regexp.MustCompile(`(?m)^\[image image/png 20×20 [0-9.]+ KiB\]$`).MatchString(text) {
		t.Errorf("no [image image/png 20×20 …] line:\n%s", text)
	}
	rows := strings.Split(strings.TrimSuffix(picture, "\n"), "\n")
	if len(rows) != 10 {
		t.Fatalf("%d rows of picture, want 10:\n%q", len(rows), picture)
	}
	for _, row := range rows {
		if w := ansi.StringWidth(row); w != 20 || !strings.Contains(row, "\x1b[38;2;") {
			t.Errorf("row %q: %d cells, want 20 in 24-bit colour", row, w)
		}
	}

	r = mcpscopeShowingPictures(t, "kitty", 100, withTarget(ts, "tool", "get-annotated-message", "messageType=success", "includeImage:=true")...)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "[image image/png 20×20 ") || !regexp.MustCompile(`\x1b_G[^;]*a=T`).MatchString(r.stdout) {
		t.Errorf("get-annotated-message: no sized line or kitty picture:\n%q", r.stdout)
	}

	r = mcpscopeShowingPictures(t, "off", 100, withTarget(ts, "tool", "get-tiny-image")...)
	r.mustExit(t, ExitOK)
	if strings.Contains(r.stdout, "\x1b") || !strings.Contains(r.stdout, "20×20") {
		t.Errorf("MCPSCOPE_IMAGES=off: %q", r.stdout)
	}
}

// The demo's tone over stdio is a WAV clip: its line says how long it is.
func TestMediaLineDemoTone(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, serveStdioMode)
	r := mcpscopeAtTerminal(t, 100, withTarget(argv, "tool", "--env", env, "tone", "duration_ms:=250")...)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "[audio audio/wav 0.25 s ") {
		t.Errorf("no 0.25 s clip:\n%s", r.stdout)
	}
}
