// Package textfit fits styled text into terminal cells: wrapping a
// paragraph into lines of a width and cutting a styled line to a width.
// The form and prompt components share it.
package textfit

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Wrap breaks text into lines of at most w cells, each rendered with
// style; none for "".
func Wrap(style lipgloss.Style, text string, w int) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(lipgloss.Wrap(text, max(w, 1), ""), "\n")
	for i, l := range lines {
		lines[i] = Clip(style.Render(l), w)
	}
	return lines
}

// Clip cuts a styled line to w cells, ending it with "…" when cut.
func Clip(s string, w int) string {
	return ansi.Truncate(s, max(w, 1), "…")
}
