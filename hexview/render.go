package hexview

import (
	"strconv"
	"strings"
)

// Render returns rows [top, top+rows) of the dump at perRow bytes per row
// (zero or less means 16, more than 256 means 256), one line per row,
// joined by newlines without a trailing one. A row reads
//
//	00000000  00 00 00 e3 7b 22 6a 73  6f 6e 72 70 63 22 3a 22  |....{"jsonrpc":"|
//
// with each byte coloured, in both columns, by the field that covers it
// (see FieldAt). When Data holds less than Size, the last row says how many
// bytes are not held. Rows outside [0, Rows(perRow)) are left out: the
// result has one line per row of [top, top+rows) ∩ [0, Rows(perRow)). The
// work done depends on the rows rendered and the fields, never on len(Data).
func (d Dump) Render(top, rows, perRow int, st Styles) string {
	return d.RenderLayout(top, rows, Layout{PerRow: perRow}, st)
}

// RenderLayout is Render with the rows in layout l; a tight row reads
//
//	0000 00 00 00 e3 7b 22 6a 73  6f 6e 72 70 63 22 3a 22  ....{"jsonrpc":"
func (d Dump) RenderLayout(top, rows int, l Layout, st Styles) string {
	perRow := normPerRow(l.PerRow)
	top, end := window(top, rows, d.Rows(perRow))
	if top >= end {
		return ""
	}
	w := &rowWriter{
		shape: d.shape(l),
		p:     newPainter(st),
		slots: make([]int, perRow),
		ranks: make([]int, perRow),
		run:   make([]byte, 0, 3*perRow+perRow/groupSize),
	}
	held := d.heldRows(perRow)
	var b strings.Builder
	b.Grow((end - top) * (w.shape.width(perRow) + 160)) // text plus a few runs' escapes
	for r := top; r < end; r++ {
		if r > top {
			b.WriteByte('\n')
		}
		if r < held {
			d.writeRow(&b, r*perRow, w)
		} else {
			w.p.write(&b, colOffset, slotNone, []byte(notHeldLine(d.notHeld())))
		}
	}
	return b.String()
}

// window is [top, top+rows) ∩ [0, total) as [lo, hi), empty when lo ≥ hi.
func window(top, rows, total int) (lo, hi int) {
	if rows <= 0 || top >= total {
		return 0, 0
	}
	hi = total
	if top < 0 || rows < total-top {
		hi = top + rows // no overflow: rows < total-top, or top < 0
	}
	return max(top, 0), min(hi, total)
}

// rowWriter holds what rendering one row needs, reused row after row.
type rowWriter struct {
	shape        rowShape
	p            *painter
	slots, ranks []int  // per byte of the row: its slot and the rank that won it
	run          []byte // text of the run of same-styled cells being built
}

// writeRow writes the row of held data that starts at byte start.
func (d Dump) writeRow(b *strings.Builder, start int, w *rowWriter) {
	data := d.Data[start:min(start+len(w.slots), len(d.Data))]
	d.paint(w.slots, w.ranks, start, w.p)
	w.run = appendOffset(w.run[:0], d.Base, start, w.shape.digits)
	w.p.write(b, colOffset, slotNone, w.run)
	b.WriteString(w.shape.afterOffset)
	w.column(b, data, true)
	b.WriteString(w.shape.open)
	w.column(b, data, false)
	b.WriteString(w.shape.close)
}

// column writes the hex column (hex) or the ASCII gutter of a row. Cells of
// the same style form one run, rendered at once, the spaces inside a run
// included; a short row pads the hex column so that the gutter lines up.
func (w *rowWriter) column(b *strings.Builder, data []byte, hex bool) {
	run, key := w.run[:0], 0
	flush := func() {
		if len(run) > 0 {
			w.write(b, hex, key, run)
			run = run[:0]
		}
	}
	for i := range w.slots {
		sep := ""
		if hex && i > 0 {
			sep = " "
			if i%groupSize == 0 {
				sep = "  "
			}
		}
		if i >= len(data) {
			flush()
			if hex {
				b.WriteString(sep + "  ")
			}
			continue
		}
		k := w.key(hex, i, data[i])
		if len(run) > 0 && k == key {
			run = append(run, sep...)
		} else {
			flush()
			b.WriteString(sep)
			key = k
		}
		run = appendCell(run, hex, data[i])
	}
	flush()
	w.run = run
}

// key is the style of cell i: its slot, and in the gutter whether it is printable.
func (w *rowWriter) key(hex bool, i int, c byte) int {
	k := (w.slots[i] + 1) * 2
	if !hex && !printable(c) {
		k++
	}
	return k
}

// write writes a run of cells of one key.
func (w *rowWriter) write(b *strings.Builder, hex bool, key int, run []byte) {
	switch {
	case hex:
		w.p.write(b, colHex, key/2-1, run)
	case key%2 == 1:
		w.p.write(b, colDot, key/2-1, run)
	default:
		w.p.write(b, colASCII, key/2-1, run)
	}
}

// appendCell appends a byte's hex digits, or its gutter character.
func appendCell(dst []byte, hex bool, c byte) []byte {
	const digits = "0123456789abcdef"
	switch {
	case hex:
		return append(dst, digits[c>>4], digits[c&0x0f])
	case printable(c):
		return append(dst, c)
	}
	return append(dst, '.')
}

// printable reports whether the gutter shows a byte as itself.
func printable(c byte) bool { return c >= 0x20 && c < 0x7f }

// appendOffset appends the offset of a row: Base (zero when negative) plus
// start, in at least digits hex digits.
func appendOffset(dst []byte, base, start, digits int) []byte {
	v := uint64(max(base, 0)) + uint64(start)
	for i := digits - 1; i > 0 && v>>(4*i) == 0; i-- {
		dst = append(dst, '0')
	}
	return strconv.AppendUint(dst, v, 16)
}

// notHeldLine says how many bytes of the unit the dump does not hold.
func notHeldLine(n int) string {
	unit := " more bytes"
	if n == 1 {
		unit = " more byte"
	}
	return "… " + groupThousands(n) + unit + " not held (capture keeps head and tail)"
}

// groupThousands writes a count n ≥ 0 with commas between groups of three
// digits: 1,048,576.
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
