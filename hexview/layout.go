package hexview

// Layout is the shape of a dump's rows: how many bytes a row holds, and
// whether the row is the tight one that fits 16 bytes in fewer columns.
type Layout struct {
	PerRow int  // bytes per row (zero or less means 16, more than 256 means 256)
	Tight  bool // offset in the digits the dump needs (at least 4) and one space, no bars round the gutter
}

// rowShape is the text round the columns of a row.
type rowShape struct {
	digits      int    // the offset has at least this many hex digits
	afterOffset string // between the offset and the hex column
	open, close string // round the ASCII gutter
}

// fullShape is the row of hexdump -C: an 8-digit offset, two spaces, the
// hex column, two spaces and the gutter between bars.
var fullShape = rowShape{digits: offsetDigits, afterOffset: "  ", open: "  |", close: "|"}

// width is the width of a full row of n bytes.
func (s rowShape) width(n int) int {
	return s.digits + len(s.afterOffset) + hexWidth(n) + len(s.open) + n + len(s.close)
}

// minTightDigits is the fewest offset digits of a tight row.
const minTightDigits = 4

// shape returns the row shape of layout l for this dump.
func (d Dump) shape(l Layout) rowShape {
	if !l.Tight {
		return fullShape
	}
	digits, last := minTightDigits, uint64(max(d.Base, 0))+uint64(max(len(d.Data)-1, 0))
	for last>>(4*digits) != 0 {
		digits++
	}
	return rowShape{digits: digits, afterOffset: " ", open: "  "}
}

// LayoutFor returns the widest layout whose rows fit width columns: 32 or
// 16 bytes per row in the full row (144 and 78 columns), else 16 in the
// tight row (71 columns for a unit under 64 KiB), else 8 in the full row
// (45 columns; also when nothing fits).
func (d Dump) LayoutFor(width int) Layout {
	if n := BytesPerRow(width); n > 8 {
		return Layout{PerRow: n}
	}
	if tight := (Layout{PerRow: 16, Tight: true}); d.shape(tight).width(16) <= width {
		return tight
	}
	return Layout{PerRow: 8}
}
