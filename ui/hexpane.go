package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/hexview"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// maxLegendShare bounds the legend to a third of the pane.
const maxLegendShare = 3

// hexPane shows the selected frame's Raw bytes as a hex dump with its
// fields coloured and a legend below. Only the rows in view are rendered.
type hexPane struct {
	st    *look.Styles
	frame *capture.Frame
	top   int // first row shown
	w, h  int
}

// newHexPane returns an empty pane.
func newHexPane(st *look.Styles) *hexPane { return &hexPane{st: st, w: 1, h: 1} }

// SetSize sets the size of the pane's body.
func (p *hexPane) SetSize(w, h int) { p.w, p.h = w, h }

// SetFrame shows f from its first row.
func (p *hexPane) SetFrame(f *capture.Frame) {
	if f != p.frame {
		p.frame, p.top = f, 0
	}
}

// dump is the hexview dump of the frame.
func (p *hexPane) dump() hexview.Dump {
	if p.frame == nil {
		return hexview.Dump{}
	}
	return hexview.Dump{Data: p.frame.Raw, Fields: p.frame.Fields, Size: p.frame.Size}
}

// layout splits the body into dump rows and legend lines, and lays the
// rows out: 16 bytes a row whenever they fit.
func (p *hexPane) layout(w, h int) (legend []string, rows int, rl hexview.Layout) {
	d := p.dump()
	rl = d.LayoutFor(w)
	if l := d.Legend(p.st.Hex, w); l != "" && h > 2 {
		legend = strings.Split(l, "\n")
		legend = legend[:min(len(legend), max(h/maxLegendShare, 1))]
	}
	rows = h
	if len(legend) > 0 {
		rows = h - len(legend) - 1
	}
	return legend, max(rows, 1), rl
}

// HandleKey scrolls the dump by rows.
func (p *hexPane) HandleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	_, rows, _ := p.layout(p.w, p.h)
	v, ok := nav.Of(msg, k.Keys, rows)
	if ok {
		p.scroll(v)
	}
	return ok
}

// scroll applies a navigation to the first row shown.
func (p *hexPane) scroll(v nav.Move) {
	_, rows, rl := p.layout(p.w, p.h)
	last := max(p.dump().Rows(rl.PerRow)-rows, 0)
	switch {
	case v.Home:
		p.top = 0
	case v.End:
		p.top = last
	default:
		p.top = min(max(p.top+v.Delta, 0), last)
	}
}

// Title names the pane.
func (p *hexPane) Title() string {
	if p.frame == nil {
		return "Hex dump"
	}
	return fmt.Sprintf("Hex dump · seq %d · %s", p.frame.Seq, look.ByteSize(int64(p.frame.Size)))
}

// Render draws the rows in view and the legend.
func (p *hexPane) Render(w, h int, _ bool) string {
	if h <= 0 {
		return ""
	}
	if p.frame == nil {
		return strings.Join(look.FitBlock(p.st.Ink.Muted.Paint("select a frame in the traffic pane"), w, h), "\n")
	}
	legend, rows, rl := p.layout(w, h)
	d := p.dump()
	body := look.FitBlock(d.RenderLayout(p.top, rows, rl, p.st.Hex), w, rows)
	if len(legend) > 0 {
		body = append(body, strings.Repeat("─", w))
		for _, l := range legend {
			body = append(body, look.FitLine(l, w))
		}
	}
	return strings.Join(look.PadLines(body, w, h), "\n")
}
