package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/ui/look"
)

// The detail's metadata breaks between fields, never inside one that
// fits a line ("(kep|t 5.3 KiB)", "Cancell|ed"), and a field wider than
// the pane breaks at its words.
func TestFieldLinesBreakBetweenFields(t *testing.T) {
	fields := []string{"seq 19", "2026-11-24 17:12:53.948", "in", "conn stdio", "control", "7.5 KiB (kept 5.3 KiB)", "json"}
	for w := 24; w <= 80; w++ {
		lines := fieldLines(fields, w)
		for _, l := range lines {
			if look.TextWidth(l) > w {
				t.Fatalf("w %d: line %q is wider", w, l)
			}
		}
		if got := strings.Join(lines, " · "); got != strings.Join(fields, " · ") {
			t.Fatalf("w %d: fields broken inside: %q", w, lines)
		}
	}
	long := []string{"error", "error -32000 Cancelled by the user because the request took too long"}
	for _, l := range fieldLines(long, 30) {
		if strings.HasSuffix(l, "Cancell") || strings.HasPrefix(l, "ed") || look.TextWidth(l) > 30 {
			t.Fatalf("a long field broke inside a word: %q", fieldLines(long, 30))
		}
	}
	if got := fieldLines([]string{"a\x1b]0;t\x07b"}, 40); strings.ContainsRune(got[0], 0x1b) {
		t.Errorf("a field reached the pane unsanitized: %q", got)
	}
}
