// Package textfit fits styled text into terminal cells: wrapping a
// paragraph into lines of a width and cutting a styled line to a width.
// The form and prompt components share it.
package textfit

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/termtext"
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
