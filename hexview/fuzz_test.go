package hexview

import (
	"encoding/binary"
	"math/big"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// fuzzFields reads fields from spec, 5 bytes each: signed 16-bit offset and
// length, and a kind (possibly unknown); at most 32 fields.
func fuzzFields(spec []byte) []proto.Field {
	var fields []proto.Field
	for len(spec) >= 5 && len(fields) < 32 {
		fields = append(fields, proto.Field{
			Offset: int(int16(binary.BigEndian.Uint16(spec))),
			Len:    int(int16(binary.BigEndian.Uint16(spec[2:]))),
			Name:   "f",
			Value:  string(spec[:5]),
			Kind:   proto.FieldKind(spec[4] % 4),
		})
		spec = spec[5:]
	}
	return fields
}

func FuzzRender(f *testing.F) {
	control := controlDump(f)
	f.Add(control.Data, []byte{0, 0, 0, 4, 0, 0, 4, 0, 227, 1}, 0, 20, 16, 0, 0)
	f.Add([]byte("ab\n"), []byte{0xff, 0xf0, 0x7f, 0xff, 2}, -3, 1<<30, 8, 1<<40, 1<<33)
	f.Add([]byte{}, []byte{}, 0, 1, 0, 5, -1)
	f.Fuzz(func(t *testing.T, data, spec []byte, top, rows, perRow, size, base int) {
		d := Dump{Data: data, Fields: fuzzFields(spec), Size: size, Base: base}
		out := d.Render(top, rows, perRow, DefaultStyles(top%2 == 0))
		total := d.Rows(perRow)
		// [top, top+rows) ∩ [0, total), in arithmetic that cannot overflow.
		lo := max(top, 0)
		hi := new(big.Int).Add(big.NewInt(int64(top)), big.NewInt(int64(rows)))
		if hi.Cmp(big.NewInt(int64(total))) > 0 {
			hi.SetInt64(int64(total))
		}
		if want := max(hi.Int64()-int64(lo), 0); int64(lineCount(out)) != want {
			t.Fatalf("Render(%d, %d, %d) of %d rows gave %d lines, want %d", top, rows, perRow, total, lineCount(out), want)
		}
		n := normPerRow(perRow)
		for i, line := range strings.Split(ansi.Strip(out), "\n")[:lineCount(out)] {
			if r := lo + i; r < d.heldRows(n) && !strings.HasPrefix(line, string(appendOffset(nil, base, r*n, offsetDigits))+"  ") {
				t.Fatalf("row %d does not start with its offset: %q", r, line)
			}
		}
		for off := -2; off < len(data)+2; off++ {
			if fl, ok := d.FieldAt(off); ok {
				if lo, hi := span(fl); off < lo || off >= hi {
					t.Fatalf("FieldAt(%d) = %+v, which does not cover it", off, fl)
				}
			}
		}
		_ = d.Legend(DefaultStyles(true), rows%200)
	})
}

func FuzzItems(f *testing.F) {
	cbor := cborControlDump(f)
	f.Add(cbor.Data[4:], false, 1, 0, 20, 40, 1, 15)
	f.Add([]byte(seedInitialize), true, 7, -3, 1<<30, 0, -1, 1<<40)
	f.Add([]byte{0x82, 0x1c}, false, -1, 1, 1, 1, 0, 0)
	f.Fuzz(func(t *testing.T, body []byte, json bool, sel, top, rows, width, row, x int) {
		enc := proto.EncCBOR
		if json {
			enc = proto.EncJSON
		}
		data := append([]byte{0, 0, 0, 0}, body...)
		d := Dump{Data: data, Size: len(data), Items: jsonrpc.BodyItems(enc, body, 4), Selected: sel}
		lines := d.ItemLines(top, rows, width, DefaultStyles(sel%2 == 0))
		lo, hi := window(top, rows, len(d.Items))
		if want := max(hi-lo, 0); lineCount(lines) != want {
			t.Fatalf("ItemLines(%d, %d) of %d items gave %d lines, want %d", top, rows, len(d.Items), lineCount(lines), want)
		}
		for _, line := range strings.Split(lines, "\n") {
			if width > 0 && ansi.StringWidth(line) > width {
				t.Fatalf("line %q is over %d columns", ansi.Strip(line), width)
			}
		}
		for off := -1; off <= len(data); off++ {
			if i, ok := d.ItemAt(off); ok {
				if lo, hi := itemSpan(d.Items[i]); off < lo || off >= hi {
					t.Fatalf("ItemAt(%d) = item %d %+v, which does not cover it", off, i, d.Items[i])
				}
			}
		}
		l := d.LayoutFor(width)
		if off, ok := d.OffsetAt(l, row, x); ok && (off/normPerRow(l.PerRow) != row || off >= len(data)) {
			t.Fatalf("OffsetAt(row %d, x %d) = %d", row, x, off)
		}
		_ = d.RenderLayout(top, rows, l, DefaultStyles(true))
	})
}
