package hexview

import (
	"encoding/hex"
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Shape of a line of the item list.
const (
	selectedMark = "▸ " // before the selected line, so that it shows without colour too
	plainMark    = "  "
	indentStep   = "  " // per level of depth
	maxIndent    = 16   // levels indented; deeper items line up with the 16th
	maxLabel     = 512  // bytes of a label shown; the line is cut to the width anyway
)

// selected returns the selected item, when Selected picks one.
func (d Dump) selected() (jsonrpc.BodyItem, bool) {
	if d.Selected < 0 || d.Selected >= len(d.Items) {
		return jsonrpc.BodyItem{}, false
	}
	return d.Items[d.Selected], true
}

// itemSpan is the byte range [lo, hi) an item covers, as span has it.
func itemSpan(it jsonrpc.BodyItem) (lo, hi int) {
	return span(proto.Field{Offset: it.Offset, Len: it.Len})
}

// ItemAt returns the index of the innermost item that covers the byte at
// offset (from Data[0]). Items come in the order of their first byte, a
// container before what it holds, so that is the last one covering it.
func (d Dump) ItemAt(offset int) (int, bool) {
	i := sort.Search(len(d.Items), func(i int) bool { return d.Items[i].Offset > offset })
	for i--; i >= 0; i-- {
		if lo, hi := itemSpan(d.Items[i]); offset >= lo && offset < hi {
			return i, true
		}
	}
	return 0, false
}

// ItemLines returns lines [top, top+rows) of the item list, one per item
// of Items, joined by newlines, each cut to width columns (zero or less:
// not cut). A line reads, indented by the item's depth,
//
//	67 text(7) "jsonrpc"
//	59 0400 bytes(1024) h'0102030405060708…'
//	"params": object(2)
//
// with a CBOR item's head in hex before its label; the selected line is
// marked "▸" and styled ItemLine. Labels pass through termtext. The work
// depends on the lines rendered, not on the number of items.
func (d Dump) ItemLines(top, rows, width int, st Styles) string {
	top, end := window(top, rows, len(d.Items))
	var b strings.Builder
	for i := top; i < end; i++ {
		if i > top {
			b.WriteByte('\n')
		}
		b.WriteString(d.itemLine(i, width, st))
	}
	return b.String()
}

// itemLine renders the line of item i.
func (d Dump) itemLine(i, width int, st Styles) string {
	it := d.Items[i]
	mark, head := plainMark, d.headHex(it)
	if i == d.Selected {
		mark = selectedMark
	}
	indent := strings.Repeat(indentStep, min(max(it.Depth, 0), maxIndent))
	label := termtext.LineMax(it.Label, maxLabel)
	if head != "" {
		head += " "
	}
	if i == d.Selected {
		line := mark + indent + head + label
		if width > 0 {
			line = ansi.Truncate(line, width, "…")
			line += strings.Repeat(" ", max(width-ansi.StringWidth(line), 0))
		}
		return st.ItemLine.Render(line)
	}
	labelStyle := lipgloss.NewStyle()
	if it.Role == jsonrpc.ItemUndecodable || it.Role == jsonrpc.ItemElided {
		labelStyle = st.ItemProblem
	}
	line := mark + indent
	if head != "" {
		line += st.Offset.Render(head)
	}
	line += labelStyle.Render(label)
	if width > 0 {
		line = ansi.Truncate(line, width, "…")
	}
	return line
}

// headHex writes a CBOR item's head as the bytes held show it: the initial
// byte, then its argument ("59 0400"); "" for an item without a head or
// one whose head is not held.
func (d Dump) headHex(it jsonrpc.BodyItem) string {
	if it.Head <= 0 || it.Head > 9 || it.Offset < 0 || it.Offset > len(d.Data)-it.Head {
		return ""
	}
	h := d.Data[it.Offset : it.Offset+it.Head]
	if len(h) == 1 {
		return hex.EncodeToString(h)
	}
	return hex.EncodeToString(h[:1]) + " " + hex.EncodeToString(h[1:])
}

// OffsetAt returns the offset (from Data[0]) of the byte shown at column x
// of row row in layout l, in the hex column or the gutter; false for any
// other column, or a row or cell without held data.
func (d Dump) OffsetAt(l Layout, row, x int) (int, bool) {
	perRow := normPerRow(l.PerRow)
	if row < 0 || row >= d.heldRows(perRow) {
		return 0, false
	}
	start := row * perRow
	sh := d.shape(l)
	x -= len(appendOffset(nil, d.Base, start, sh.digits)) + len(sh.afterOffset)
	i := -1
	switch gutter := hexWidth(perRow) + len(sh.open); {
	case x >= 0 && x < hexWidth(perRow):
		group := 3*groupSize + 1 // columns from one group's start to the next
		if j, col := x%group/3, x%group%3; j < groupSize && col < 2 {
			i = x/group*groupSize + j // on a digit, not a space
		}
	case x >= gutter && x < gutter+perRow:
		i = x - gutter
	}
	if i < 0 || i >= perRow || start+i >= len(d.Data) {
		return 0, false
	}
	return start + i, true
}
