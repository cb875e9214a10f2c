package look

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TabStop is the distance between two tab stops, as a terminal sets them.
const TabStop = 8

// ExpandTabs renders each tab of plain text (already made safe to print)
// as the spaces up to the next tab stop of its line, so that text aligned
// with tabs keeps its columns wherever it is drawn.
func ExpandTabs(s string) string {
	if !strings.ContainsRune(s, '\t') {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	col := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\t':
			n := TabStop - col%TabStop
			b.WriteString(strings.Repeat(" ", n))
			col += n
			i++
			continue
		case c == '\n':
			col = 0
		case c < utf8.RuneSelf:
			col++
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+n])
			col += ansi.StringWidth(s[i : i+n])
			i += n
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}
