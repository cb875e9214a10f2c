package look

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// Cell fits plain text (no escape sequences) into exactly w columns: it is
// cut with "…" when longer and padded with spaces when shorter. Control
// characters become spaces, so a row stays one line.
func Cell(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = OneLine(s)
	n := TextWidth(s)
	switch {
	case n == w:
		return s
	case n < w:
		return s + strings.Repeat(" ", w-n)
	}
	s = ansi.Truncate(s, w, "…")
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

// CellRight fits plain text into w columns, aligned right; like Cell it
// shows controls escaped, so a row stays one line.
func CellRight(s string, w int) string {
	s = OneLine(s)
	if n := TextWidth(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return Cell(s, w)
}

// TextWidth is the width of plain text in columns; ASCII is counted fast.
func TextWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// FitLine fits a line that may hold escape sequences into exactly w columns.
func FitLine(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = ansi.StringWidth(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// FitBlock fits text into exactly h lines of exactly w columns each.
func FitBlock(s string, w, h int) []string {
	out := make([]string, 0, h)
	if s != "" {
		for _, ln := range strings.Split(s, "\n") {
			if len(out) == h {
				break
			}
			out = append(out, FitLine(ln, w))
		}
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(out) < h {
		out = append(out, blank)
	}
	return out
}

// PadLines brings lines already w columns wide to exactly h lines, adding
// blank ones or dropping the last.
func PadLines(lines []string, w, h int) []string {
	if len(lines) > h {
		return lines[:h]
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(lines) < h {
		lines = append(lines, blank)
	}
	return lines
}

// OneLineMax is the most bytes of one text that oneLine keeps: more than
// any screen shows on a line.
const OneLineMax = 4 << 10

// OneLine makes text safe to show on one line of a pane: tabs and line
// breaks become spaces, escape sequences and every other control are shown
// escaped (\x1b, termtext.Line), and text past oneLineMax bytes is cut
// with a note of how much was left out.
func OneLine(s string) string {
	s = termtext.Shorten(s, OneLineMax)
	if strings.ContainsAny(s, "\t\n\r") {
		s = breaksAsSpaces.Replace(s)
	}
	return termtext.Line(s)
}

// breaksAsSpaces turns tabs and line breaks into spaces.
var breaksAsSpaces = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

// ByteSize renders a byte count: "512 B", "1.5 KiB", "3.0 MiB".
func ByteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// Rate renders bytes per second.
func Rate(bps float64) string {
	if bps <= 0 {
		return "-"
	}
	return ByteSize(int64(bps)) + "/s"
}

// Duration renders a latency compactly: "850µs", "12ms", "1.2s".
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		return ""
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Truncate(time.Second).String()
}

// ClockTime renders a frame's time of day with milliseconds.
func ClockTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("15:04:05.000")
}

// ZipRows joins the i-th rows of left and right for i < n; a side that
// has no i-th row gives "".
func ZipRows(left, right []string, n int, join func(l, r string) string) []string {
	out := make([]string, n)
	for i := range out {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = join(l, r)
	}
	return out
}
