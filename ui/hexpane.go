package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/hexview"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// maxLegendShare bounds the legend to a third of the pane, and the item
// list to a third of what the legend leaves.
const maxLegendShare = 3

// minListRoom is the fewest lines the legend leaves for the item list to
// be shown: below it the dump takes them all.
const minListRoom = 6

// hexPane shows the selected frame's Raw bytes as a hex dump with its
// fields coloured, the data items of its body listed below (one line each,
// the selected one highlighted there and in the dump), and a legend. Only
// the rows and lines in view are rendered.
type hexPane struct {
	st      *look.Styles
	hint    string // the legend's entry of the item keys
	frame   *capture.Frame
	items   []jsonrpc.BodyItem // the frame's body items, once known
	known   bool               // items holds the frame's items
	sel     int                // the selected item, -1 for none
	mark    proto.Field        // bytes marked (a finding's), Len 0 for none
	top     int                // first row shown
	listTop int                // first item line shown
	w, h    int
}

// newHexPane returns an empty pane whose legend says the item keys of k.
func newHexPane(st *look.Styles, k KeyMap) *hexPane {
	hint := k.PrevItem.Help().Key + " " + k.NextItem.Help().Key + " items"
	return &hexPane{st: st, hint: hint, sel: -1, w: 1, h: 1}
}

// SetSize sets the size of the pane's body.
func (p *hexPane) SetSize(w, h int) { p.w, p.h = w, h }

// SetFrame shows f from its first row, no item selected.
func (p *hexPane) SetFrame(f *capture.Frame) {
	if f != p.frame {
		p.frame, p.top, p.listTop, p.sel, p.mark = f, 0, 0, -1, proto.Field{}
		p.items, p.known = nil, false
	}
}

// dump is the hexview dump of the frame.
func (p *hexPane) dump() hexview.Dump {
	if p.frame == nil {
		return hexview.Dump{Selected: -1}
	}
	return hexview.Dump{Data: p.frame.Raw, Fields: p.frame.Fields, Size: p.frame.Size, Items: p.bodyItems(), Selected: p.sel, Mark: p.mark}
}

// hexLayout is how the pane's body is shared: dump rows, the item list
// (a title line and its lines) and the legend (a rule and its lines).
type hexLayout struct {
	legend []string
	rows   int // dump rows
	list   int // item lines; 0 when the list is not shown
	rl     hexview.Layout
}

// layout shares the body of a w×h pane, and lays the rows out: 16 bytes a
// row whenever they fit.
func (p *hexPane) layout(w, h int) hexLayout {
	d := p.dump()
	l := hexLayout{rl: d.LayoutFor(w)}
	if lg := p.legend(d, w); lg != "" && h > 2 {
		l.legend = strings.Split(lg, "\n")
		l.legend = l.legend[:min(len(l.legend), max(h/maxLegendShare, 1))]
	}
	room := h
	if len(l.legend) > 0 {
		room = h - len(l.legend) - 1
	}
	if len(d.Items) > 0 && room >= minListRoom {
		l.list = min(max(room/maxLegendShare, 2), len(d.Items))
		room -= l.list + 1
		// Rows the dump does not fill go to the list.
		spare := min(room-d.Rows(l.rl.PerRow), len(d.Items)-l.list)
		if spare > 0 {
			l.list += spare
			room -= spare
		}
	}
	l.rows = max(room, 1)
	return l
}

// legend is the fields' legend, and the item keys when there are items.
func (p *hexPane) legend(d hexview.Dump, w int) string {
	lg := d.Legend(p.st.Hex, w)
	if len(d.Items) == 0 {
		return lg
	}
	hint := p.st.Ink.Muted.Paint(p.hint)
	last := lg[strings.LastIndexByte(lg, '\n')+1:]
	switch {
	case lg == "":
		return hint
	case look.TextWidth(last)+2+look.TextWidth(p.hint) <= w:
		return lg + "  " + hint
	}
	return lg + "\n" + hint
}

// HandleKey walks the body's items, or scrolls the dump by rows.
func (p *hexPane) HandleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	if step, ok := itemStep(msg, k); ok {
		p.walkItems(step)
		return true
	}
	v, ok := nav.Of(msg, k.Keys, p.layout(p.w, p.h).rows)
	if ok {
		p.scroll(v)
	}
	return ok
}

// scroll applies a navigation to the first row shown.
func (p *hexPane) scroll(v nav.Move) {
	l := p.layout(p.w, p.h)
	last := max(p.dump().Rows(l.rl.PerRow)-l.rows, 0)
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

// Render draws the rows in view, the item lines in view and the legend.
func (p *hexPane) Render(w, h int, _ bool) string {
	if h <= 0 {
		return ""
	}
	if p.frame == nil {
		return strings.Join(look.FitBlock(p.st.Ink.Muted.Paint("select a frame in the traffic pane"), w, h), "\n")
	}
	l := p.layout(w, h)
	d := p.dump()
	body := look.FitBlock(d.RenderLayout(p.top, l.rows, l.rl, p.st.Hex), w, l.rows)
	if l.list > 0 {
		body = append(body, p.listTitle(w))
		body = append(body, look.FitBlock(d.ItemLines(p.listTop, l.list, w, p.st.Hex), w, l.list)...)
	}
	if len(l.legend) > 0 {
		body = append(body, strings.Repeat("─", w))
		for _, lg := range l.legend {
			body = append(body, look.FitLine(lg, w))
		}
	}
	return strings.Join(look.PadLines(body, w, h), "\n")
}
