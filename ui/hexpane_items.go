package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/look"
)

// bodyItems returns the data items of the frame's body, annotating them
// on first use: the walk is linear in the body, and a frame passed over
// in the traffic pane never pays for it.
func (p *hexPane) bodyItems() []jsonrpc.BodyItem {
	if !p.known && p.frame != nil {
		if lo, hi, ok := bodySpan(p.frame); ok {
			p.items = jsonrpc.BodyItems(p.frame.Enc, p.frame.Raw[lo:hi], lo)
		}
		p.known = true
	}
	return p.items
}

// bodySpan returns where a frame's body lies in Raw: the first range its
// framer annotated as the body, clipped to the bytes held.
func bodySpan(f *capture.Frame) (lo, hi int, ok bool) {
	for _, fd := range f.Fields {
		if fd.Kind == proto.FieldBody {
			return clip(fd.Offset, fd.Len, len(f.Raw))
		}
	}
	return 0, 0, false
}

// itemStep reads the item keys: -1 for the previous item, +1 for the next.
func itemStep(msg tea.KeyPressMsg, k KeyMap) (int, bool) {
	switch {
	case key.Matches(msg, k.PrevItem):
		return -1, true
	case key.Matches(msg, k.NextItem):
		return 1, true
	}
	return 0, false
}

// walkItems selects the item step places after the selected one (before
// it when negative), staying within the items; with none selected, the
// next is the first and the previous the last.
func (p *hexPane) walkItems(step int) {
	n := len(p.bodyItems())
	switch {
	case n == 0:
		return
	case p.sel < 0 && step < 0:
		p.selectItem(n - 1)
	case p.sel < 0:
		p.selectItem(0)
	default:
		p.selectItem(min(max(p.sel+step, 0), n-1))
	}
}

// selectItem selects item i and scrolls the dump to its first row and the
// list to its line.
func (p *hexPane) selectItem(i int) {
	items := p.bodyItems()
	if i < 0 || i >= len(items) {
		return
	}
	p.sel, p.mark = i, proto.Field{}
	l := p.layout(p.w, p.h)
	perRow := max(l.rl.PerRow, 1)
	row := items[i].Offset / perRow
	switch {
	case row < p.top:
		p.top = row
	case row >= p.top+l.rows:
		p.top = row - l.rows + 1
	}
	switch {
	case i < p.listTop:
		p.listTop = i
	case l.list > 0 && i >= p.listTop+l.list:
		p.listTop = i - l.list + 1
	}
}

// selectSpan shows the bytes [off, off+n) of the frame: the body item
// that covers exactly them is selected; other bytes (a header line, a
// length prefix, one byte that is not UTF-8) are marked. The dump scrolls
// to their first row.
func (p *hexPane) selectSpan(off, n int) {
	if n <= 0 || p.frame == nil {
		return
	}
	for i, it := range p.bodyItems() {
		if it.Offset == off && it.Len == n {
			p.selectItem(i)
			return
		}
	}
	p.sel, p.mark = -1, proto.Field{Offset: off, Len: n, Name: "finding"}
	l := p.layout(p.w, p.h)
	row := off / max(l.rl.PerRow, 1)
	if row < p.top || row >= p.top+l.rows {
		p.top = max(row-l.rows/2, 0)
	}
}

// listTitle is the line over the item list: the selected item's path,
// safe to print, or how many items there are.
func (p *hexPane) listTitle(w int) string {
	title := "items"
	if items := p.bodyItems(); p.sel >= 0 && p.sel < len(items) && items[p.sel].Path != "" {
		title = termtext.Line(items[p.sel].Path)
	} else if len(items) == 1 {
		title = "1 item"
	} else if len(items) > 1 {
		title = strconv.Itoa(len(items)) + " items"
	}
	line := "─ " + title + " "
	if n := look.TextWidth(line); n < w {
		line += strings.Repeat("─", w-n)
	}
	return look.FitLine(p.st.Ink.Muted.Paint(line), w)
}

// click selects what is under the cell (x, y) of the pane's body: the
// innermost item of a byte of the dump, or an item line.
func (p *hexPane) click(x, y int) {
	l := p.layout(p.w, p.h)
	d := p.dump()
	switch first := l.rows + 1; {
	case y >= 0 && y < l.rows:
		if off, ok := d.OffsetAt(l.rl, p.top+y, x); ok {
			if i, ok := d.ItemAt(off); ok {
				p.selectItem(i)
			}
		}
	case l.list > 0 && y >= first && y < first+l.list:
		p.selectItem(p.listTop + y - first)
	}
}
