package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// detailPane shows the selected frame in full: metadata, decode errors,
// pretty JSON and CBOR notation, scrolled by a viewport. Its content is
// built once per frame and width, never per render.
type detailPane struct {
	x       *index
	st      *Styles
	dialect proto.Dialect
	vp      viewport.Model
	frame   *capture.Frame
	width   int
	dirty   bool
}

// newDetailPane returns an empty pane.
func newDetailPane(x *index, st *Styles) *detailPane {
	return &detailPane{x: x, st: st, vp: viewport.New(viewport.WithWidth(1), viewport.WithHeight(1))}
}

// SetSize sets the size of the pane's body.
func (p *detailPane) SetSize(w, h int) {
	if w != p.width {
		p.dirty = true
	}
	p.width = w
	p.vp.SetWidth(max(w, 1))
	p.vp.SetHeight(max(h, 1))
}

// SetFrame shows f from the top.
func (p *detailPane) SetFrame(f *capture.Frame) {
	if f != p.frame {
		p.frame, p.dirty = f, true
		p.vp.GotoTop()
	}
}

// restyle rebuilds the content with new styles (a background change).
func (p *detailPane) restyle() { p.dirty = true }

// prepare builds the content when the frame, the width or the styles changed.
func (p *detailPane) prepare() {
	if !p.dirty {
		return
	}
	p.dirty = false
	if p.frame == nil {
		p.vp.SetContent(p.st.muted.paint("select a frame in the traffic pane"))
		return
	}
	in := detailInput{f: p.frame, dialect: p.dialect, st: p.st}
	if c, ok := p.x.lookup(p.frame); ok {
		in.call = c
	}
	if d, ok := p.x.latency(p.frame); ok {
		in.latency = duration(d)
	}
	y := p.vp.YOffset()
	p.vp.SetContent(detailContent(in, max(p.width, 20)))
	p.vp.SetYOffset(y)
}

// HandleKey scrolls the viewport.
func (p *detailPane) HandleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	v, ok := navOf(msg, k, p.vp.Height())
	if ok {
		p.scroll(v)
	}
	return ok
}

// scroll applies a navigation to the viewport.
func (p *detailPane) scroll(v nav) {
	switch {
	case v.home:
		p.vp.GotoTop()
	case v.end:
		p.vp.GotoBottom()
	case v.delta < 0:
		p.vp.ScrollUp(-v.delta)
	default:
		p.vp.ScrollDown(v.delta)
	}
}

// Title names the pane and the frame shown.
func (p *detailPane) Title() string {
	if p.frame == nil {
		return "Detail"
	}
	t := fmt.Sprintf("Detail · seq %d", p.frame.Seq)
	if n := p.vp.TotalLineCount(); n > p.vp.Height() {
		t += fmt.Sprintf(" · %d%%", int(p.vp.ScrollPercent()*100))
	}
	return t
}

// Render draws the viewport.
func (p *detailPane) Render(w, h int, _ bool) string {
	return strings.Join(fitBlock(p.vp.View(), w, h), "\n")
}
