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
	middle bool // cut in the middle rather than at the end (a note naming a file: its name stays)
}

// minMessage is the fewest columns the messages keep beside the lead of
// the facts; on a narrower bar the messages have it all.
const minMessage = 24

// fitStatus lays the status bar out in w columns. The messages outrank
// the facts: when all does not fit, the facts are cut first, down to the
// lead (the first lead facts: ● REC and the state), then to nothing when
// the messages would have fewer than minMessage columns; then the notice
// and the error are cut at their end and the note at its end too, or in
// its middle when it names a file.
func fitStatus(bar lipgloss.Style, facts []string, lead int, segs []statusSegment, w int) string {
	need := segsWidth(segs)
	all := " " + strings.Join(facts, " · ") + " "
	factsW := ansi.StringWidth(all)
	leadW := leadWidth(facts, lead)
	switch {
	case factsW+need <= w:
	case w-need >= leadW:
		all = ansi.Truncate(all, w-need, "…")
	case w-leadW >= minMessage:
		all = " " + strings.Join(facts[:min(lead, len(facts))], " · ") + " "
	default:
		all = ""
	}
	line := bar.Render(all) + fitSegments(segs, w-ansi.StringWidth(all))
	if n := ansi.StringWidth(line); n < w {
		return line + bar.Render(strings.Repeat(" ", w-n))
	}
	return ansi.Truncate(line, w, "…")
}

// segsWidth is the columns segs take, a space either side of each.
func segsWidth(segs []statusSegment) int {
	n := 0
	for i := range segs {
		n += ansi.StringWidth(segs[i].text) + 2
	}
	return n
}

// leadWidth is the columns the first lead facts take on the bar.
func leadWidth(facts []string, lead int) int {
	return ansi.StringWidth(" " + strings.Join(facts[:min(lead, len(facts))], " · ") + " ")
}

// fitsBeside reports whether segs fit whole on a w-column bar beside the
// lead of the facts.
func fitsBeside(facts []string, lead int, segs []statusSegment, w int) bool {
	return leadWidth(facts, lead)+segsWidth(segs) <= w
}

// fitSegments draws segs in room columns: the last (the note) is given
// its room first, then the one before it.
func fitSegments(segs []statusSegment, room int) string {
	widths := make([]int, len(segs))
	for i := len(segs) - 1; i >= 0; i-- {
		widths[i] = min(ansi.StringWidth(segs[i].text)+2, max(room, 0))
		room -= widths[i]
	}
	line := ""
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
	return line
}
