package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// stderrPane shows what a stdio server wrote on its standard error, newest
// at the bottom; the navigation keys scroll back.
type stderrPane struct {
	lines *lineRing
	st    *look.Styles
	back  int // lines scrolled back from the newest
	rows  int
}

// newStderrPane returns the pane of a line ring.
func newStderrPane(lines *lineRing, st *look.Styles) *stderrPane {
	return &stderrPane{lines: lines, st: st, rows: 1}
}

// SetSize sets the size of the pane's body.
func (p *stderrPane) SetSize(_, h int) { p.rows = max(h, 1) }

// HandleKey scrolls: up goes back in time.
func (p *stderrPane) HandleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	v, ok := nav.Of(msg, k.Keys, p.rows)
	if ok {
		p.scroll(v)
	}
	return ok
}

// scroll moves through the lines.
func (p *stderrPane) scroll(v nav.Move) {
	last := max(p.lines.len()-p.rows, 0)
	switch {
	case v.Home:
		p.back = last
	case v.End:
		p.back = 0
	default:
		p.back = min(max(p.back-v.Delta, 0), last)
	}
}

// Title names the pane.
func (p *stderrPane) Title() string {
	t := "Stderr · " + plural.Count(p.lines.total, "line", "lines")
	if p.back > 0 {
		t += fmt.Sprintf(" · %d back", p.back)
	}
	return t
}

// Render draws the lines in view.
func (p *stderrPane) Render(w, h int, _ bool) string {
	if h <= 0 {
		return ""
	}
	n := p.lines.len()
	if n == 0 {
		return strings.Join(look.PadLines([]string{p.st.Ink.Muted.Paint(look.Cell("nothing on stderr (only a stdio server has one)", w))}, w, h), "\n")
	}
	end := n - min(p.back, n-1)
	start := max(end-h, 0)
	lines := make([]string, 0, h)
	for i := start; i < end; i++ {
		lines = append(lines, look.Cell(p.lines.at(i), w))
	}
	return strings.Join(look.PadLines(lines, w, h), "\n")
}
