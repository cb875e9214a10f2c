package prompts

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/progress"
	"github.com/mcpscope/mcpscope/internal/app/textfit"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxBarWidth bounds the progress bar, so a wide window does not make it
// a line across the screen.
const maxBarWidth = 40

// Progress draws how far an interaction has come: a bar with the
// percentage and "step 2 of 5", then the server's message. It is a static
// render of the last progress the server sent.
type Progress struct {
	progress mcp.InteractionProgress
	styles   Styles
}

// NewProgress returns a Progress showing p.
func NewProgress(p mcp.InteractionProgress, dark bool) *Progress {
	return &Progress{progress: p, styles: DefaultStyles(dark)}
}

// Set shows another progress.
func (p *Progress) Set(pr mcp.InteractionProgress) { p.progress = pr }

// SetDark switches the styles between dark and light backgrounds.
func (p *Progress) SetDark(dark bool) { p.styles = DefaultStyles(dark) }

// Fraction is current/total within [0, 1]; ok is false when the total is
// unknown (zero, negative or not a number).
func (p *Progress) Fraction() (f float64, ok bool) {
	cur, total := p.progress.Current, p.progress.Total
	if !(total > 0) || math.IsInf(total, 0) || math.IsNaN(cur) {
		return 0, false
	}
	return math.Max(0, math.Min(1, cur/total)), true
}

// Render draws the bar and the count on the first line and the message on
// the second, in at most w×h cells; without a total, only the step
// number and the message.
func (p *Progress) Render(w, h int) string {
	w, h = max(w, 1), max(h, 1)
	count := "step " + num(finite(p.progress.Current))
	f, ok := p.Fraction()
	if ok {
		count = fmt.Sprintf("step %s of %s", num(finite(p.progress.Current)), num(p.progress.Total))
	}
	first := p.styles.Muted.Render(count)
	if ok {
		barWidth := min(maxBarWidth, w-len(count)-1)
		if barWidth >= 10 {
			bar := progress.New(
				progress.WithWidth(barWidth),
				progress.WithFillCharacters(progress.DefaultFullCharFullBlock, progress.DefaultEmptyCharBlock),
				progress.WithColors(p.styles.BarFull),
			)
			bar.EmptyColor = p.styles.BarEmpty
			first = bar.ViewAs(f) + " " + first
		}
	}
	lines := []string{textfit.Clip(first, w)}
	if msg := strings.TrimSpace(p.progress.Message); msg != "" {
		lines = append(lines, textfit.Wrap(p.styles.Rules, msg, w)...)
	}
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

// finite replaces NaN and infinities by 0, for display.
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}
