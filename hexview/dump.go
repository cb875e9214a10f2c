// Package hexview renders bytes with the annotations the framers of proto
// put on them: an offset column, hex in groups of eight and an ASCII gutter,
// each byte coloured by the field that covers it, and a legend of the
// fields. It is pure rendering: no I/O and no Bubble Tea model.
package hexview

import (
	"math"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Dump is a framed unit to show: the bytes held and their annotations.
type Dump struct {
	Data   []byte        // the bytes held (may be a truncated head of the unit)
	Fields []proto.Field // annotations, offsets from Data[0]
	Size   int           // the unit's true size (>= len(Data)); the dump says how much is not held
	Base   int           // offset printed for Data[0] (e.g. a stream tail's position)
	// Items are the data items or members of the body (jsonrpc.BodyItems),
	// offsets from Data[0], listed by ItemLines; Selected is the index of
	// the one highlighted in both the rows and the list, and any index
	// outside Items (-1, say) highlights none.
	Items    []jsonrpc.BodyItem
	Selected int
	// Mark is a byte range highlighted as a selected item's value is (a
	// finding's bytes), offsets from Data[0]; Len 0 marks nothing. A
	// selected item is painted over it.
	Mark proto.Field
}

// Row geometry: an 8-digit offset, two spaces, the hex column, two spaces
// and the gutter between bars.
const (
	offsetDigits = 8
	groupSize    = 8   // bytes per hex group; groups are parted by an extra space
	maxPerRow    = 256 // bytes per row accepted by Render; more are clamped
)

// BytesPerRow returns the widest of 32, 16 or 8 bytes per row whose row
// fits width columns (144, 78 and 45 columns), and 8 when none fits. It
// assumes an 8-digit offset, as every offset below 4 GiB has.
func BytesPerRow(width int) int {
	for _, n := range []int{32, 16} {
		if rowWidth(n) <= width {
			return n
		}
	}
	return 8
}

// rowWidth is the width of a full row of n bytes in the full shape.
func rowWidth(n int) int { return fullShape.width(n) }

// hexWidth is the width of the hex column of n bytes.
func hexWidth(n int) int { return 3*n - 1 + (n+groupSize-1)/groupSize - 1 }

// normPerRow brings a caller's bytes per row into [1, maxPerRow]; zero or
// less means 16.
func normPerRow(perRow int) int {
	if perRow <= 0 {
		return 16
	}
	return min(perRow, maxPerRow)
}

// Rows returns the number of rows the dump renders to at perRow bytes per
// row: the rows of the held data, plus one for the line saying how many
// bytes are not held when Size is over len(Data).
func (d Dump) Rows(perRow int) int {
	perRow = normPerRow(perRow)
	rows := d.heldRows(perRow)
	if d.notHeld() > 0 {
		rows++
	}
	return rows
}

// heldRows is the number of rows of held data.
func (d Dump) heldRows(perRow int) int { return (len(d.Data) + perRow - 1) / perRow }

// notHeld is the number of bytes of the unit that Data does not hold.
func (d Dump) notHeld() int { return max(d.Size-len(d.Data), 0) }

// FieldAt returns the field that covers the byte at offset (from Data[0]),
// the one whose colour the byte has: a header field before a delimiter,
// a delimiter before a body, and the first in field order among equals.
// Offsets past the held data are answered too, from the annotations.
func (d Dump) FieldAt(offset int) (proto.Field, bool) {
	var best proto.Field
	found, bestRank := false, rankNone
	for _, f := range d.Fields {
		lo, hi := span(f)
		if offset >= lo && offset < hi && kindRank(f.Kind) < bestRank {
			best, found, bestRank = f, true, kindRank(f.Kind)
		}
	}
	return best, found
}

// Precedence of overlapping fields: the lowest rank colours a byte.
const (
	rankHeader = iota
	rankDelimiter
	rankBody
	rankNone
)

// kindRank is the precedence of a field kind; unknown kinds count as body.
func kindRank(k proto.FieldKind) int {
	switch k {
	case proto.FieldHeader:
		return rankHeader
	case proto.FieldDelimiter:
		return rankDelimiter
	}
	return rankBody
}

// span is the byte range [lo, hi) a field covers, saturating instead of
// overflowing; a field of length zero or less covers nothing.
func span(f proto.Field) (lo, hi int) {
	if f.Len <= 0 {
		return f.Offset, f.Offset
	}
	if f.Offset > math.MaxInt-f.Len {
		return f.Offset, math.MaxInt
	}
	return f.Offset, f.Offset + f.Len
}

// paint sets slots[i] to the slot colouring byte start+i of Data, for the
// bytes of one row: fields are clamped to the row, so a field out of range
// or out of order costs nothing and breaks nothing.
func (d Dump) paint(slots, ranks []int, start int, p *painter) {
	for i := range slots {
		slots[i], ranks[i] = slotNone, rankNone
	}
	end, header := start+len(slots), 0
	for _, f := range d.Fields {
		rank := kindRank(f.Kind)
		slot := p.slot(rank, header)
		if rank == rankHeader {
			header++
		}
		lo, hi := span(f)
		for i := max(lo, start); i < min(hi, end); i++ {
			if rank < ranks[i-start] {
				slots[i-start], ranks[i-start] = slot, rank
			}
		}
	}
	if d.Mark.Len > 0 {
		lo, hi := span(d.Mark)
		for i := max(lo, start); i < min(hi, end); i++ {
			slots[i-start] = p.itemSlot(false)
		}
	}
	if it, ok := d.selected(); ok {
		lo, hi := itemSpan(it)
		head := lo + max(it.Head, it.Value)
		for i := max(lo, start); i < min(hi, end); i++ {
			slots[i-start] = p.itemSlot(i < head)
		}
	}
}
