package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/ui/look"
)

// Where the progress strip of the traffic pane shows a bar: while its
// request runs and reports, and for stripLinger after it ended or was
// cancelled; a bar silent for stripIdle leaves the strip (its request may
// belong to a connection that is gone).
const (
	stripLinger  = 10 * time.Second
	stripIdle    = 2 * time.Minute
	maxStripBars = 3
)

// Marks of a cancelled request and of progress that came after it.
const (
	markCancelled   = "✕ cancelled"
	markAfterCancel = "progress after cancel"
)

// inStrip reports whether the traffic pane's strip shows bar b at now.
func inStrip(b *progressBar, now time.Time) bool {
	idle := now.Sub(b.last)
	if b.end == inFlight && !b.isCancelled() {
		return idle < stripIdle
	}
	return idle < stripLinger
}

// barWidth is the width of the bar itself on a line of w columns.
func barWidth(w int) int { return max(min(w/4, 30), 10) }

// renderProgressBar draws bar b on one line of w columns: the request id,
// the bar (a moving block when the server gave no total), the count, how
// it ended, the elapsed time, the request's name and the latest message.
func renderProgressBar(b *progressBar, now time.Time, w int, st *look.Styles) string {
	barW := barWidth(w)
	tint := st.Ink.Good
	switch {
	case b.isCancelled():
		tint = st.Ink.Warn
	case b.end == endFailed:
		tint = st.Ink.Error
	}
	track, count := look.Track(b.progress, b.total, b.reports, barW)
	parts := []string{count}
	switch {
	case b.isCancelled():
		parts[0] += " " + markCancelled
		if b.afterCancel > 0 {
			parts = append(parts, fmt.Sprintf("%s (%d)", markAfterCancel, b.afterCancel))
		}
	case b.end == endAnswered:
		parts[0] += " ✓ done"
	case b.end == endFailed:
		parts[0] += " ✕ failed"
	}
	parts = append(parts, look.Duration(b.elapsed(now)))
	if b.method != "" {
		parts = append(parts, b.method)
	}
	if b.message != "" {
		parts = append(parts, b.message)
	}
	head := look.CellRight("#"+idText(b.id), 6) + " "
	return look.FitLine(head+tint.Paint(track)+" "+look.OneLine(strings.Join(parts, " · ")), w)
}

// progressLines renders up to n bars of the board that keep accepts, the
// most recently active first.
func progressLines(pb *progressBoard, n, w int, keep func(*progressBar) bool, st *look.Styles) []string {
	bars := pb.newestFirst(n, keep)
	out := make([]string, 0, len(bars))
	for _, b := range bars {
		out = append(out, renderProgressBar(b, pb.now, w, st))
	}
	return out
}
