package hexview

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// toolsCallCBOR is {"jsonrpc":"2.0","id":1,"method":"tools/call",
// "params":{"name":"echo","arguments":{"x":3}}} in CBOR.
const toolsCallCBOR = "a4676a736f6e72706363322e3062696401666d6574686f646a746f6f6c732f63616c6c66706172616d73a2646e616d6564" +
	"6563686f69617267756d656e7473a1617803"

// withItems annotates the body of d, which its body field locates, as enc.
func withItems(d Dump, enc proto.Encoding, selected int) Dump {
	for _, f := range d.Fields {
		if f.Kind == proto.FieldBody {
			d.Items = jsonrpc.BodyItems(enc, d.Data[f.Offset:f.Offset+f.Len], f.Offset)
		}
	}
	d.Selected = selected
	return d
}

// cborControlDump is a control frame whose CBOR body is a tools/call
// request, its item "jsonrpc" (the first key) selected.
func cborControlDump(t testing.TB) Dump { return cborControlDumpAt(t, 1) }

// cborParamsDump is cborControlDump with the value of params selected.
func cborParamsDump(t testing.TB) Dump { return cborControlDumpAt(t, 8) }

// cborControlDumpAt is the control frame of cborControlDump with item
// selected.
func cborControlDumpAt(t testing.TB, selected int) Dump {
	body, err := hex.DecodeString(toolsCallCBOR)
	if err != nil {
		t.Fatal(err)
	}
	d := framed(t, flow.AppendControlFrame(nil, body), func(b []byte) ([]proto.Field, error) {
		_, _, f, err := flow.ParseControlFrame(b, 0)
		return f, err
	})
	return withItems(d, proto.EncCBOR, selected)
}

// jsonLineDump is the seed's initialize request as one stdio line, its
// member params.clientInfo selected.
func jsonLineDump(t testing.TB) Dump {
	line := jsonrpc.AppendLine(nil, []byte(seedInitialize))
	d := framed(t, line, func(b []byte) ([]proto.Field, error) { return jsonrpc.LineFields(b), nil })
	d = withItems(d, proto.EncJSON, -1)
	for i, it := range d.Items {
		if it.Path == "params.clientInfo" {
			d.Selected = i
		}
	}
	return d
}

// upperSelection shows the selected item in upper case, so that a golden
// file stripped of escapes shows where it is.
func upperSelection(st Styles) Styles {
	st.Item = st.Item.Transform(strings.ToUpper)
	st.ItemHead = st.ItemHead.Transform(strings.ToUpper)
	return st
}

func TestItemGoldens(t *testing.T) {
	for name, dump := range map[string]func(testing.TB) Dump{"cbor_items": cborParamsDump, "json_items": jsonLineDump} {
		t.Run(name, func(t *testing.T) {
			d := dump(t)
			st := DefaultStyles(true)
			got := "-- render (the selected item in upper case) --\n" + ansi.Strip(d.Render(0, d.Rows(16), 16, upperSelection(st))) +
				"\n-- items 60 --\n" + goldentest.Plain(d.ItemLines(0, len(d.Items), 60, st)) + "\n"
			goldentest.Check(t, name, got)
		})
	}
}

func TestSelectedItemIsHighlighted(t *testing.T) {
	for _, dark := range []bool{true, false} {
		st := DefaultStyles(dark)
		d := cborControlDump(t) // "jsonrpc": head 67 at offset 5, content 6a 73 … at 6
		out := d.Render(0, 1, 16, st)
		head, content, value := sgrBefore(t, out, "67"), sgrBefore(t, out, "6a 73"), sgrBefore(t, out, "63 32")
		d.Selected = -1
		plain := d.Render(0, 1, 16, st)
		if head == content || content == value || head == value || value != sgrBefore(t, plain, "a4 67") {
			t.Errorf("dark=%v: head %q, content %q, next item %q (unselected body %q)", dark, head, content, value, sgrBefore(t, plain, "a4 67"))
		}
		if !strings.Contains(head, ";7") && !strings.Contains(head, "[7") {
			t.Errorf("dark=%v: the selected head %q is not in reverse video, which shows without colour", dark, head)
		}
		// The gutter shows the selection too.
		if g := sgrBefore(t, out[strings.Index(out, "|"):], "jsonrpc"); g != content {
			t.Errorf("dark=%v: the gutter shows the selection as %q, the hex as %q", dark, g, content)
		}
	}
}

func TestItemAtFindsTheInnermostItem(t *testing.T) {
	d := cborControlDump(t)
	for off, want := range map[int]string{
		4:  "map(4)",            // the outer map's head
		5:  `text(7) "jsonrpc"`, // a key's head
		12: `text(7) "jsonrpc"`, // its last byte
		20: "uint 1",
		46: "map(2)",
		70: "uint 3", // the last byte of the body
	} {
		if i, ok := d.ItemAt(off); !ok || d.Items[i].Label != want {
			t.Errorf("ItemAt(%d) = %d, %v; want %q", off, i, ok, want)
		}
	}
	for _, off := range []int{-1, 0, 3, 71, 1 << 40} {
		if i, ok := d.ItemAt(off); ok {
			t.Errorf("ItemAt(%d) = %d, want none (outside the body)", off, i)
		}
	}
}

func TestItemLinesWindowAndWidth(t *testing.T) {
	d := cborControlDump(t)
	got := ansi.Strip(d.ItemLines(1, 3, 30, DefaultStyles(true)))
	want := "▸   67 text(7) \"jsonrpc\"      \n" +
		"    63 text(3) \"2.0\"\n" +
		"    62 text(2) \"id\""
	if got != want {
		t.Fatalf("lines 1..4 at 30 columns\n%q\nwant\n%q", got, want)
	}
	for _, w := range []struct{ top, rows, lines int }{{-2, 3, 1}, {14, 5, 1}, {15, 1, 0}, {0, 0, 0}, {0, 1 << 62, 15}, {-1 << 62, 1 << 62, 0}} {
		if n := lineCount(d.ItemLines(w.top, w.rows, 20, DefaultStyles(true))); n != w.lines {
			t.Errorf("ItemLines(top=%d, rows=%d) has %d lines, want %d", w.top, w.rows, n, w.lines)
		}
	}
	for _, line := range strings.Split(d.ItemLines(0, 15, 12, DefaultStyles(true)), "\n") {
		if n := ansi.StringWidth(line); n > 12 {
			t.Errorf("line %q is %d wide, over 12", ansi.Strip(line), n)
		}
	}
	// Server text is shown escaped, and the undecodable rest stands out.
	evil := Dump{Data: []byte("\x62\x1b]\x78"), Items: jsonrpc.BodyItems(proto.EncCBOR, []byte("\x62\x1b]\x78"), 0), Selected: -1}
	lines := evil.ItemLines(0, 5, 0, DefaultStyles(true))
	if strings.Contains(lines, "\x1b]") || !strings.Contains(ansi.Strip(lines), `62 text(2) "\x1b]"`) {
		t.Errorf("lines %q", lines)
	}
	if ansi.Strip(evil.ItemLines(1, 1, 0, Styles{})) != "  undecodable from here: 1 byte after the body's item" {
		t.Errorf("rest %q", ansi.Strip(evil.ItemLines(1, 1, 0, Styles{})))
	}
}

func TestOffsetAtColumns(t *testing.T) {
	d := controlDump(t)
	for _, l := range []Layout{{PerRow: 16}, {PerRow: 16, Tight: true}, {PerRow: 8}, {PerRow: 32}} {
		row := ansi.Strip(d.RenderLayout(1, 1, l, Styles{}))
		n := normPerRow(l.PerRow)
		hexSeen, gutterSeen := 0, 0
		for x := range len(row) + 2 {
			off, ok := d.OffsetAt(l, 1, x)
			if !ok {
				continue
			}
			if off < n || off >= 2*n {
				t.Fatalf("%+v: column %d gives offset %d, outside row 1", l, x, off)
			}
			c := d.Data[off]
			cell := hex.EncodeToString([]byte{c})
			switch {
			case x+1 < len(row) && (row[x:x+2] == cell || x > 0 && row[x-1:x+1] == cell):
				hexSeen++
			case row[x] == c || row[x] == '.' && !printable(c):
				gutterSeen++
			default:
				t.Fatalf("%+v: column %d (%q) gives offset %d, byte %02x", l, x, row[x], off, c)
			}
		}
		if hexSeen != 2*n || gutterSeen != n {
			t.Errorf("%+v: %d hex columns and %d gutter columns give bytes, want %d and %d", l, hexSeen, gutterSeen, 2*n, n)
		}
	}
	for _, c := range []struct{ row, x int }{{-1, 10}, {1 << 30, 10}, {0, -5}, {0, 0}, {0, 1 << 40}} {
		if off, ok := d.OffsetAt(Layout{PerRow: 16}, c.row, c.x); ok {
			t.Errorf("OffsetAt(row %d, x %d) = %d, want none", c.row, c.x, off)
		}
	}
	// The last row is short: columns past its bytes give none.
	last := d.heldRows(16) - 1
	if off, ok := d.OffsetAt(Layout{PerRow: 16}, last, 10+3*15); ok {
		t.Errorf("past the last byte: %d", off)
	}
}
