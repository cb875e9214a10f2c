package ui

import (
	"fmt"

	"github.com/mcpscope/mcpscope/ui/look"
)

// minStripRows is the fewest body rows of the traffic pane that make room
// for the progress strip: below it the list keeps every row.
const minStripRows = 8

// stripBars returns the bars the progress strip shows in a body of rows
// rows, the most recently active first: none when the strip is off.
func (p *trafficPane) stripBars(rows int) []*progressBar {
	if !p.strip || rows < minStripRows {
		return nil
	}
	pb := &p.x.progress
	return pb.newestFirst(min(maxStripBars, rows/4), func(b *progressBar) bool { return inStrip(b, pb.now) })
}

// stripLines is the lines the progress strip of bars takes: a title line
// and a line per bar, or none.
func stripLines(bars []*progressBar) int {
	if len(bars) == 0 {
		return 0
	}
	return len(bars) + 1
}

// listRows is the rows of the frame list: the body less the strip.
func (p *trafficPane) listRows() int { return max(p.rows-stripLines(p.stripBars(p.rows)), 1) }

// renderStrip draws the progress strip of bars, w columns wide: the
// requests in progress (and those that ended or were cancelled a moment
// ago), newest first, for the connections whose progress has no pane of
// its own.
func (p *trafficPane) renderStrip(w int, bars []*progressBar) []string {
	if len(bars) == 0 {
		return nil
	}
	lines := make([]string, 0, len(bars)+1)
	title := fmt.Sprintf("Progress · %d request", len(bars))
	if len(bars) != 1 {
		title += "s"
	}
	lines = append(lines, p.st.Title.Render(look.Cell(" "+title, w)))
	for _, b := range bars {
		lines = append(lines, renderProgressBar(b, p.x.progress.now, w, p.st))
	}
	return lines
}
