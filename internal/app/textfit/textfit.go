// Package textfit fits styled text into terminal cells: wrapping a
// paragraph into lines of a width and cutting a styled line to a width.
// The form and prompt components share it.
package textfit

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// Wrap breaks plain text into lines of at most w cells, each rendered with
// style; none for "". The text is often the server's (a question, a
// description): escape sequences and other controls in it are shown
// escaped (termtext.Block), never sent to the terminal.
func Wrap(style lipgloss.Style, text string, w int) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(lipgloss.Wrap(termtext.Block(text), max(w, 1), ""), "\n")
	for i, l := range lines {
		lines[i] = Clip(style.Render(l), w)
	}
	return lines
}

// Clip cuts a styled line to w cells, ending it with "…" when cut.
func Clip(s string, w int) string {
	return ansi.Truncate(s, max(w, 1), "…")
}

// Flow lays styled items out left to right, two spaces apart, starting a
// new line when the next one would pass width; an item wider than width
// is cut with "…". A width of zero or less keeps every item on one line.
func Flow(items []string, width int) string {
	var b strings.Builder
	col := 0
	for _, it := range items {
		w := ansi.StringWidth(it)
		if width > 0 && w > width {
			it, w = Clip(it, width), width
		}
		switch {
		case col == 0:
		case width > 0 && col+2+w > width:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteString("  ")
			col += 2
		}
		b.WriteString(it)
		col += w
	}
	return b.String()
}
