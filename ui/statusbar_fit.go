package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/look"
)

// statusSegment is one coloured part of the status bar after the facts:
// the standing notice, the latest error or the latest note.
type statusSegment struct {
	text   string // plain, one line
	style  lipgloss.Style
	middle bool // cut in the middle rather than at the end (a note: a saved file's name stays)
}

// minMessage is the fewest columns the messages keep beside the lead of
// the facts; on a narrower bar the messages have it all.
const minMessage = 24

// fitStatus lays the status bar out in w columns. The messages outrank
// the facts: when all does not fit, the facts are cut first, down to the
// lead (the first lead facts: ● REC and the state), then to nothing when
// the messages would have fewer than minMessage columns; then the notice
// and the error are cut at their end and the note in its middle.
func fitStatus(bar lipgloss.Style, facts []string, lead int, segs []statusSegment, w int) string {
	need := 0
	for i := range segs {
		need += ansi.StringWidth(segs[i].text) + 2
	}
	all := " " + strings.Join(facts, " · ") + " "
	factsW := ansi.StringWidth(all)
	leadText := " " + strings.Join(facts[:min(lead, len(facts))], " · ") + " "
	leadW := ansi.StringWidth(leadText)
	switch {
	case factsW+need <= w:
	case w-need >= leadW:
		all = ansi.Truncate(all, w-need, "…")
	case w-leadW >= minMessage:
		all = leadText
	default:
		all = ""
	}
	line := bar.Render(all)
	room := w - ansi.StringWidth(all)
	// The note is given its room first, then the error, then the notice.
	widths := make([]int, len(segs))
	for i := len(segs) - 1; i >= 0; i-- {
		widths[i] = min(ansi.StringWidth(segs[i].text)+2, max(room, 0))
		room -= widths[i]
	}
	for i, s := range segs {
		if widths[i] < 3 {
			continue
		}
		text := ansi.Truncate(s.text, widths[i]-2, "…")
		if s.middle {
			text = look.ElideMiddle(s.text, widths[i]-2)
		}
		line += s.style.Render(" " + text + " ")
	}
	if n := ansi.StringWidth(line); n < w {
		return line + bar.Render(strings.Repeat(" ", w-n))
	}
	return ansi.Truncate(line, w, "…")
}
