package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// rowSource is the list of frames the traffic pane scrolls through: every
// held frame, or the matches of a filter. Its methods cost what they
// return, never the size of the capture.
type rowSource interface {
	count() int
	seqAt(i int) uint64
	find(seq uint64) int // index of the first row whose Seq is seq or later; count() when none
	window(st *capture.Store, from, n int) []*capture.Frame
}

// allRows is every frame the store holds, Seqs first…last.
type allRows struct{ first, last uint64 }

// heldRows returns the frames the store holds now.
func heldRows(st *capture.Store) allRows {
	s := st.Stats()
	return allRows{first: s.FirstSeq, last: s.LastSeq}
}

func (a allRows) count() int {
	if a.last < a.first {
		return 0
	}
	return int(a.last - a.first + 1)
}

func (a allRows) seqAt(i int) uint64 { return a.first + uint64(i) }

func (a allRows) find(seq uint64) int {
	if seq <= a.first {
		return 0
	}
	return int(min(seq-a.first, uint64(a.count())))
}

func (a allRows) window(st *capture.Store, from, n int) []*capture.Frame {
	return st.Window(a.first+uint64(from), n)
}

// trafficPane lists the captured frames, one row each, read by window from
// the store. It keeps the selection and the first row shown as Seqs, so
// that rows arriving or leaving the store do not move them.
type trafficPane struct {
	store   *capture.Store
	x       *index
	st      *look.Styles
	dialect mcp.Dialect
	sel     uint64         // Seq of the selected frame; 0 before there is one
	held    *capture.Frame // the selected frame, kept when the store drops it
	top     uint64         // Seq of the first row shown
	follow  bool           // keep the newest frame selected
	rows    int            // rows of the body below the column titles: the list and the progress strip
	strip   bool           // show the progress strip (the Datagrams pane, which shows the board, is not on screen)
	proxied bool           // the store is a proxied session's: the host is the client (proxy_rows.go)
}

// newTrafficPane returns the pane, following new frames.
func newTrafficPane(st *capture.Store, x *index, styles *look.Styles) *trafficPane {
	return &trafficPane{store: st, x: x, st: styles, follow: true, rows: 1}
}

// SetSize sets the size of the pane's body and scrolls for it: following,
// the newest frame stays in view; else the selection does, with no blank
// rows below the last frame while there are frames above.
func (p *trafficPane) SetSize(_, h int) {
	if rows := max(h-1, 1); rows != p.rows {
		p.rows = rows
		p.sync()
	}
}

// emptyText says why the pane shows no row: no frame captured yet, or
// none the filter matches (so far, while it reads the older frames).
func (p *trafficPane) emptyText() string {
	v := p.x.filter
	switch {
	case v == nil || heldRows(p.store).count() == 0:
		return "no frames yet"
	case !v.done():
		return "looking for " + termtext.Line(v.fl.text) + "…"
	}
	return "no frame matches " + termtext.Line(v.fl.text)
}

// source returns the rows shown: the filter's matches, or every frame.
func (p *trafficPane) source() rowSource {
	if p.x.filter != nil {
		return p.x.filter
	}
	return heldRows(p.store)
}

// selected returns the selected frame, also when the store has dropped it
// since it was selected.
func (p *trafficPane) selected() (*capture.Frame, bool) {
	if p.sel == 0 {
		return nil, false
	}
	if f, ok := p.store.Get(p.sel); ok {
		p.held = f // the store's current copy: it may have dropped the bytes
		return f, true
	}
	return p.held, p.held != nil && p.held.Seq == p.sel
}

// dropped reports whether the store no longer holds the selected frame.
func (p *trafficPane) dropped() bool {
	return p.sel != 0 && p.sel < p.store.Stats().FirstSeq
}

// sync follows the newest frame, or keeps a selection on a row that exists.
func (p *trafficPane) sync() {
	src := p.source()
	n := src.count()
	switch {
	case n == 0:
		return
	case p.follow:
		p.selectIndex(src, n-1)
	case p.dropped(): // the frame stays selected when older frames leave the store
		p.top = src.seqAt(p.fill(src.find(p.top), n))
	default:
		p.selectIndex(src, src.find(p.sel))
	}
}

// selectIndex selects row i and scrolls it into view.
func (p *trafficPane) selectIndex(src rowSource, i int) {
	n := src.count()
	if n == 0 {
		return
	}
	i = min(max(i, 0), n-1)
	if seq := src.seqAt(i); seq != p.sel || p.held == nil {
		p.sel = seq
		p.held, _ = p.store.Get(seq)
	}
	top := min(src.find(p.top), n-1)
	switch {
	case i < top:
		top = i
	case i >= top+p.listRows():
		top = i - p.listRows() + 1
	}
	p.top = src.seqAt(p.fill(top, n))
}

// fill moves the first row shown, index top of n rows, up as far as needed
// for the rows to fill the pane: no blank rows below the last frame while
// there are frames above.
func (p *trafficPane) fill(top, n int) int {
	return max(min(top, n-p.listRows()), 0)
}

// selectSeq selects the frame with Seq seq (or the next row shown) and
// stops following.
func (p *trafficPane) selectSeq(seq uint64) {
	p.follow = false
	src := p.source()
	p.selectIndex(src, src.find(seq))
}

// shows reports whether seq is one of the rows listed, under the filter in
// force.
func (p *trafficPane) shows(seq uint64) bool {
	src := p.source()
	i := src.find(seq)
	return i < src.count() && src.seqAt(i) == seq
}

// HandleKey moves the selection; moving up stops following.
func (p *trafficPane) HandleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	v, ok := nav.Of(msg, k.Keys, p.listRows())
	if !ok {
		return false
	}
	p.scroll(v)
	return true
}

// scroll applies a navigation to the selection.
func (p *trafficPane) scroll(v nav.Move) {
	if v.Up() {
		p.follow = false
	}
	src := p.source()
	pos, n := src.find(p.sel), src.count()
	if i, ok := v.ApplyFrom(pos, n, pos < n && src.seqAt(pos) == p.sel); ok {
		p.selectIndex(src, i)
	}
}

// clickRow selects the row at line y of the body (line 0 holds the titles).
func (p *trafficPane) clickRow(y int) {
	src := p.source()
	if y < 1 || y > p.listRows() || src.count() == 0 {
		return
	}
	i := min(src.find(p.top), src.count()-1) + y - 1
	if i < src.count() {
		p.follow = false
		p.selectIndex(src, i)
	}
}

// Title names the pane and says how many rows it shows.
func (p *trafficPane) Title() string {
	src := p.source()
	t := "Traffic · " + plural.Count(src.count(), "frame", "frames")
	if v := p.x.filter; v != nil {
		t = fmt.Sprintf("Traffic · filter %q · %s", v.fl.text, plural.Count(src.count(), "match", "matches"))
		if !v.done() {
			t += " (searching…)"
		}
	}
	if p.follow {
		t += " · follow"
	} else if p.dropped() {
		t += fmt.Sprintf(" · frame %d selected, no longer held", p.sel)
	}
	return t
}

// Render draws the column titles, the rows in view and, below them, the
// progress strip.
func (p *trafficPane) Render(w, h int, focused bool) string {
	if h <= 0 {
		return ""
	}
	bars := p.stripBars(h - 1)
	list := h - 1 - stripLines(bars)
	cols := trafficColumns(w)
	if p.proxied {
		cols = cols.proxied()
	}
	lines := make([]string, 0, h)
	lines = append(lines, p.st.Ink.Muted.Paint(cols.header()))
	src := p.source()
	if n := src.count(); n > 0 {
		top := min(src.find(p.top), n-1)
		for _, f := range src.window(p.store, top, list) {
			lines = append(lines, p.row(f, cols, focused))
		}
	} else {
		lines = append(lines, p.st.Ink.Muted.Paint(look.Cell(p.emptyText(), w)))
	}
	lines = look.PadLines(lines, w, 1+list)
	return strings.Join(append(lines, p.renderStrip(w, bars)...), "\n")
}
