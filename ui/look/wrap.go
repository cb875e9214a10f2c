package look

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// WrapHanging cuts a line (plain or coloured) into rows of w columns, the
// rows after the first indented by hang, so that a wrapped line of
// indented text (pretty JSON) goes on under its own indentation.
func WrapHanging(l string, w, hang int) []string {
	if hang == 0 || ansi.StringWidth(l) <= w {
		return strings.Split(ansi.Hardwrap(l, w, true), "\n")
	}
	rows := strings.Split(ansi.Hardwrap(ansi.TruncateLeft(l, w, ""), w-hang, true), "\n")
	indent := strings.Repeat(" ", hang)
	for i := range rows {
		rows[i] = indent + rows[i]
	}
	return append([]string{ansi.Truncate(l, w, "")}, rows...)
}

// Hang is the indentation a wrapped line goes on under: its leading
// spaces, or 0 when they would leave less than half of w.
func Hang(l string, w int) int {
	n := len(l) - len(strings.TrimLeft(l, " "))
	if n > w/2 {
		return 0
	}
	return n
}
