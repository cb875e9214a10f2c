package bench

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/ui/look"
)

// maxPoints is the most ticks the chart keeps: more than any terminal is
// wide, so memory stays bounded whatever the duration.
const maxPoints = 1024

// point is one tick of the chart: the p50 and p99 latency of the calls
// completed in that tick; idle when none completed.
type point struct {
	p50, p99 time.Duration
	idle     bool
}

// history is the chart's ticks, oldest first, and the highest p99 seen
// in the run, which scales the chart.
type history struct {
	points []point
	top    time.Duration
}

// add appends the tick of w, forgetting the oldest beyond maxPoints.
func (h *history) add(w load.Window) {
	p := point{p50: max(w.P50, 0), p99: max(w.P99, w.P50, 0), idle: w.Completed == 0}
	if len(h.points) == maxPoints {
		copy(h.points, h.points[1:])
		h.points = h.points[:maxPoints-1]
	}
	h.points = append(h.points, p)
	if !p.idle {
		h.top = max(h.top, p.p99)
	}
}

// eighths are the blocks of a p50 bar's top cell, one to seven eighths.
var eighths = []rune("▁▂▃▄▅▆▇")

// axisWidth is the width of the y-axis labels and their rule.
const axisWidth = 9

// render draws the chart in w×rows: the newest tick at the right, a p50
// bar (solid, to the eighth of a cell) under a p99 shade per column, the
// y-axis labelled in milliseconds from 0 to the highest p99 seen.
func (h *history) render(w, rows int, st *look.Styles) []string {
	rows = max(rows, 1)
	cols := max(w-axisWidth, 1)
	pts := h.points
	if len(pts) > cols {
		pts = pts[len(pts)-cols:]
	}
	lead := cols - len(pts)
	out := make([]string, rows)
	for r := range rows {
		level := rows - 1 - r // 0 is the bottom row
		var b strings.Builder
		b.WriteString(st.Ink.Muted.Paint(h.label(r, rows)))
		b.WriteString(strings.Repeat(" ", lead))
		var run strings.Builder // cells of one kind, painted at once
		kind := cellBlank
		flush := func() {
			b.WriteString(paintCells(kind, run.String(), st))
			run.Reset()
		}
		for _, p := range pts {
			k, c := h.cell(p, level, rows)
			if k != kind {
				flush()
				kind = k
			}
			run.WriteRune(c)
		}
		flush()
		out[r] = b.String()
	}
	return out
}

// cellKind is what a cell of the chart shows.
type cellKind int

const (
	cellBlank cellKind = iota
	cellP50
	cellP99
)

// paintCells paints cells of kind k in the theme's colours.
func paintCells(k cellKind, s string, st *look.Styles) string {
	switch k {
	case cellP50:
		return st.Ink.Accent.Paint(s)
	case cellP99:
		return st.Ink.Warn.Paint(s)
	}
	return s
}

// cell is the cell of p in the row level rows from the bottom.
func (h *history) cell(p point, level, rows int) (cellKind, rune) {
	if p.idle || h.top <= 0 {
		return cellBlank, ' '
	}
	e50 := scale(p.p50, h.top, rows*8) // in eighths of a cell
	c99 := (scale(p.p99, h.top, rows*8) + 7) / 8
	switch {
	case e50 >= (level+1)*8:
		return cellP50, '█'
	case e50 > level*8:
		return cellP50, eighths[e50-level*8-1]
	case level < c99:
		return cellP99, '░'
	}
	return cellBlank, ' '
}

// scale maps d in [0, top] to [0, steps], rounded; a latency above zero
// shows at least one step.
func scale(d, top time.Duration, steps int) int {
	if d <= 0 || top <= 0 {
		return 0
	}
	n := int((int64(d)*int64(steps) + int64(top)/2) / int64(top))
	return min(max(n, 1), steps)
}

// label is the y-axis of row r: the top row the highest p99 seen, the
// bottom row 0, the middle row half of it (only 0 before anything was
// measured); a rule beside every row.
func (h *history) label(r, rows int) string {
	text := ""
	switch {
	case r == rows-1:
		text = "0ms"
	case h.top <= 0: // nothing measured yet: no scale to name
	case r == 0:
		text = millis(h.top)
	case r == rows/2 && rows >= 5:
		text = millis(h.top / 2)
	}
	return fmt.Sprintf("%*s ┤", axisWidth-2, text)
}

// millis renders d in milliseconds: "0.25ms", "12.5ms", "1250ms".
func millis(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms >= 100:
		return fmt.Sprintf("%.0fms", ms)
	case ms >= 10:
		return fmt.Sprintf("%.1fms", ms)
	}
	return fmt.Sprintf("%.2fms", ms)
}

// legend names the chart's marks.
func legend(st *look.Styles) string {
	return st.Ink.Accent.Paint("█") + " p50  " + st.Ink.Warn.Paint("░") + " p99  · a column per " + look.Duration(Interval) + " of calls"
}
