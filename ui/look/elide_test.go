package look

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A path elided to fit keeps its file name whole and says where text was
// left out.
func TestElideMiddleKeepsTheName(t *testing.T) {
	path := "saved 19 frames to /home/someone/.local/state/mcpscope/recordings/2026-11-29T08-40-00-demo.mcpscope.jsonl"
	for _, w := range []int{50, 60, 78} {
		got := ElideMiddle(path, w)
		if ansi.StringWidth(got) != w || !strings.HasSuffix(got, "2026-11-29T08-40-00-demo.mcpscope.jsonl") || !strings.Contains(got, "…") {
			t.Errorf("w %d: %q", w, got)
		}
	}
	if got := ElideMiddle("short", 10); got != "short" {
		t.Errorf("text that fits was changed: %q", got)
	}
}
