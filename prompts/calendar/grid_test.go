package calendar_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts/calendar"
)

// Weeks start on Monday; the selected day is in brackets, also in the
// last column; every month takes the same height.
func TestMonthGrid(t *testing.T) {
	var out []string
	for _, c := range []struct{ shown, sel string }{
		{"2026-03-01", "2026-03-01"}, // starts on a Sunday: six weeks
		{"2026-06-01", "2026-06-07"}, // starts on a Monday; a Sunday selected
		{"2026-02-10", "2026-03-10"}, // selection in another month: none shown
	} {
		shown, _ := calendar.ParseDate(c.shown)
		sel, _ := calendar.ParseDate(c.sel)
		lines := calendar.Month(calendar.Styles{}, shown, sel, true, shown)
		if len(lines) != calendar.GridHeight {
			t.Errorf("%s: %d lines, want %d", c.shown, len(lines), calendar.GridHeight)
		}
		for _, l := range lines {
			if len(l) > calendar.GridWidth {
				t.Errorf("%s: line %q is wider than %d", c.shown, l, calendar.GridWidth)
			}
		}
		out = append(out, lines...)
		out = append(out, "--")
	}
	goldentest.Check(t, "months", goldentest.Plain(strings.Join(out, "\n"))+"\n")
}
