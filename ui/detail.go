package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// detailPane shows the selected frame in full: metadata, decode errors,
// pretty JSON and CBOR notation, scrolled a row at a time. Its content is
// laid out once per frame and width, never per render, and a render
// colours and draws only the rows in view.
type detailPane struct {
	x       *index
	st      *look.Styles
	dialect mcp.Dialect
	content rowBlock
	offset  int // first row shown
	height  int // rows shown
	frame   *capture.Frame
	width   int
	dirty   bool
	cancels int // the index's cancellations when the content was laid out
	// unread says the index had not read the frame when the content was
	// laid out: once it has, its call (method, verdict) is laid out.
	unread bool
	drawn  uint64 // media.Drawn when the content was laid out: a picture it waited for may be drawn since
	pics   uint64 // st.Pictures.Gen when the content was laid out: its pictures' cells may show others since
	// streamOf looks up the stream a chunk belongs to (Store.Stream), to
	// name a gateway stream by its GUID; nil names streams by their key.
	streamOf func(capture.StreamKey) (capture.StreamStats, bool)
	// proxied says the frames are a proxied session's: the host is the
	// client, and the metadata says who sent each frame in those words.
	proxied bool
}

// newDetailPane returns an empty pane.
func newDetailPane(x *index, st *look.Styles) *detailPane {
	return &detailPane{x: x, st: st, content: fixedRows{""}, height: 1}
}

// SetSize sets the size of the pane's body.
func (p *detailPane) SetSize(w, h int) {
	if w != p.width {
		p.dirty = true
	}
	p.width = w
	p.height = max(h, 1)
	p.offset = p.clamp(p.offset)
}

// SetFrame shows f from the top.
func (p *detailPane) SetFrame(f *capture.Frame) {
	if f != p.frame {
		p.frame, p.dirty = f, true
		p.offset = 0
	}
}

// restyle rebuilds the content with new styles (a background change).
func (p *detailPane) restyle() { p.dirty = true }

// prepare lays out the content when the frame, the width or the styles
// changed, the index read the frame since, a cancellation may have marked
// the frame's call, a verdict arrived about it (verdictArrived), or a
// picture decoded meanwhile may be the one it waits for.
func (p *detailPane) prepare() {
	read := p.unread && p.frame.Seq < p.x.next
	if !p.dirty && !read && p.cancels == p.x.cancels && p.drawn == media.Drawn() && p.pics == p.st.Pictures.Gen() {
		return
	}
	p.dirty, p.cancels, p.drawn, p.pics = false, p.x.cancels, media.Drawn(), p.st.Pictures.Gen()
	p.unread = p.frame != nil && p.frame.Seq >= p.x.next
	if p.frame == nil {
		p.content = fixedRows{p.st.Ink.Muted.Paint("select a frame in the traffic pane")}
		p.offset = 0
		return
	}
	in := detailInput{f: p.frame, dialect: p.dialect, st: p.st, proxied: p.proxied, tools: &p.x.tools, reports: &p.x.reports}
	if p.proxied {
		in.x = p.x
	}
	if s, ok := gatewayStream(p.frame, p.streamOf); ok {
		in.gateway = gatewayID(s)
	}
	if c, ok := p.x.lookup(p.frame); ok {
		in.call = c
	}
	if d, ok := p.x.latency(p.frame); ok {
		in.latency = look.Duration(d)
	}
	p.content = detailContent(in, max(p.width, 20))
	p.offset = p.clamp(p.offset)
}

// clamp keeps a first row within the content.
func (p *detailPane) clamp(offset int) int {
	return min(max(offset, 0), max(p.content.rowCount()-p.height, 0))
}

// HandleKey scrolls the content.
func (p *detailPane) HandleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	v, ok := nav.Of(msg, k.Keys, p.height)
	if ok {
		p.scroll(v)
	}
	return ok
}

// scroll applies a navigation to the first row shown.
func (p *detailPane) scroll(v nav.Move) {
	switch {
	case v.Home:
		p.offset = 0
	case v.End:
		p.offset = p.clamp(p.content.rowCount())
	default:
		p.offset = p.clamp(p.offset + v.Delta)
	}
}

// Title names the pane and the frame shown.
func (p *detailPane) Title() string {
	if p.frame == nil {
		return "Detail"
	}
	t := fmt.Sprintf("Detail · seq %d", p.frame.Seq)
	if n := p.content.rowCount(); n > p.height {
		t += fmt.Sprintf(" · %d%%", p.offset*100/(n-p.height))
	}
	return t
}

// Render draws the rows in view.
func (p *detailPane) Render(w, h int, _ bool) string {
	return strings.Join(look.FitBlock(strings.Join(p.content.rows(p.offset, min(h, p.height)), "\n"), w, h), "\n")
}
