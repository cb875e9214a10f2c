package look

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ElideMiddle fits plain one-line text in w columns by leaving out its
// middle, marked "…": a third of the room for its head, the rest for its
// tail, and at least the text after its last "/" when that fits, so that
// a path keeps its file name whole. Text that fits is returned as it is.
func ElideMiddle(s string, w int) string {
	n := ansi.StringWidth(s)
	switch {
	case n <= w:
		return s
	case w <= 1:
		return ansi.Truncate(s, max(w, 0), "")
	}
	head := (w - 1) / 3
	tail := w - 1 - head
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		if name := ansi.StringWidth(s[i:]); name > tail && name+2 <= w {
			tail, head = name, w-1-name
		}
	}
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, n-tail, "")
}
