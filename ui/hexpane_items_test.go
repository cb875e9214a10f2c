package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// isCBORCall picks the CBOR tools/call request of read_file in the sample store.
func isCBORCall(f *capture.Frame) bool {
	return isMethod("tools/call")(f) && f.Enc == proto.EncCBOR && strings.Contains(string(f.Msg.Params), "read_file")
}

// headInk returns how the hex pane's rows start the selected item's head.
func headInk(m *Model) string {
	st := m.styles.Hex
	r := st.ItemHead.Inherit(st.Body).Inherit(st.Hex).Render("\x00")
	return r[:strings.Index(r, "\x00")]
}

// selectedLine returns the line of the hex pane marked selected, stripped.
func selectedLine(t *testing.T, out string) string {
	t.Helper()
	for _, line := range strings.Split(ansi.Strip(out), "\n") {
		if strings.HasPrefix(line, "▸ ") {
			return strings.TrimRight(line, " ")
		}
	}
	t.Fatalf("no selected line in\n%s", ansi.Strip(out))
	return ""
}

func TestHexPaneWalksBodyItems(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 160, 45)
	call := selectWhere(t, m, isCBORCall)
	press(m, "x")
	b := m.layout.body(paneHex)
	out := m.hex.Render(b.w, b.h, true)
	if m.hex.sel != -1 || strings.Contains(out, headInk(m)) || !strings.Contains(ansi.Strip(out), "[ ] items") {
		t.Fatalf("before any item key: selected %d, pane\n%s", m.hex.sel, ansi.Strip(out))
	}
	// The body's items, in order: the map, then key and value of each pair.
	want := []struct{ line, head string }{
		{"▸ a4 map(4)", "a4"},
		{`▸   67 text(7) "jsonrpc"`, "67"},
		{`▸   63 text(3) "2.0"`, "63"},
		{`▸   62 text(2) "id"`, "62"},
	}
	for i, w := range want {
		press(m, "]")
		out = m.hex.Render(b.w, b.h, true)
		if m.hex.sel != i || selectedLine(t, out) != w.line || !strings.Contains(out, headInk(m)+w.head) {
			t.Fatalf("after %d × ]: selected %d, line %q, want %q and its head %s highlighted in the rows", i+1, m.hex.sel, selectedLine(t, out), w.line, w.head)
		}
	}
	press(m, "[")
	if out = m.hex.Render(b.w, b.h, true); m.hex.sel != 2 || selectedLine(t, out) != want[2].line {
		t.Fatalf("after [: selected %d, line %q", m.hex.sel, selectedLine(t, out))
	}
	golden(t, "hex_items", out)
	// Another frame starts with no item selected.
	press(m, "tab")
	for m.focus != paneTraffic {
		press(m, "tab")
	}
	press(m, "k")
	if m.hex.sel != -1 || m.hex.frame == nil || m.hex.frame.Seq == call.Seq {
		t.Errorf("another frame: selected %d", m.hex.sel)
	}
	// The item keys belong to the hex pane: in the traffic pane they do nothing.
	seq := selectedFrame(t, m).Seq
	press(m, "]")
	if selectedFrame(t, m).Seq != seq || m.hex.sel != -1 {
		t.Errorf("] in the traffic pane moved something")
	}
}

// bigResultStore holds one JSON result of many members, longer than the
// hex pane.
func bigResultStore(t *testing.T) *capture.Store {
	st := capture.NewStore(capture.Config{})
	res := map[string]any{}
	for i := range 60 {
		res[fmt.Sprintf("member%02d", i)] = i
	}
	st.Append(controlFrame(t, capture.In, t0, proto.EncJSON, result(t, 9, res)))
	return st
}

func TestHexPaneScrollsToTheSelectedItem(t *testing.T) {
	m := newTestModel(t, bigResultStore(t), 160, 45)
	press(m, "x")
	p := m.hex
	l := p.layout(p.w, p.h)
	items := p.bodyItems()
	press(m, "[") // with none selected, the previous item is the last
	last := len(items) - 1
	row := items[last].Offset / l.rl.PerRow
	if p.sel != last || p.top == 0 || row < p.top || row >= p.top+l.rows {
		t.Fatalf("last item %d (row %d) selected as %d; rows %d..%d shown", last, row, p.sel, p.top, p.top+l.rows)
	}
	if p.listTop == 0 || last < p.listTop || last >= p.listTop+l.list {
		t.Fatalf("item lines %d..%d shown, the selected is %d", p.listTop, p.listTop+l.list, last)
	}
	out := ansi.Strip(p.Render(p.w, p.h, true))
	if sel := selectedLine(t, out); !strings.Contains(sel, `"member59": 59`) || !strings.Contains(out, "─ result.member59 ─") {
		t.Fatalf("selected line %q, pane\n%s", sel, out)
	}
	press(m, "]") // the last stays the last
	press(m, "k") // the rows keep their keys, the selection stays
	top := p.top
	press(m, "g")
	if p.sel != last || top != row-l.rows || p.top != 0 {
		t.Errorf("after ], k and g: selected %d, top %d then %d", p.sel, top, p.top)
	}
	press(m, "]")
	if p.top == 0 {
		t.Errorf("walking brings the selected item's row back into view")
	}
}

func TestHexPaneClickSelectsItems(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 160, 45)
	selectWhere(t, m, isCBORCall)
	b := m.layout.body(paneHex)
	p := m.hex
	l := p.layout(p.w, p.h)
	d := p.dump()
	// Click the gutter character of byte 6, the first byte of the key "jsonrpc".
	x := -1
	for c := b.w - 1; c >= 0; c-- {
		if off, ok := d.OffsetAt(l.rl, 0, c); ok && off == 6 {
			x = c
			break
		}
	}
	if x < 0 {
		t.Fatal("byte 6 is not on the first row")
	}
	m.Update(tea.MouseClickMsg{X: b.x + x, Y: b.y, Button: tea.MouseLeft})
	if m.focus != paneHex || p.sel != 1 || selectedLine(t, p.Render(b.w, b.h, true)) != `▸   67 text(7) "jsonrpc"` {
		t.Fatalf("click on byte 6: focus %s, selected %d", paneNames[m.focus], p.sel)
	}
	// Click the fourth item line under the rows and the list title.
	m.Update(tea.MouseClickMsg{X: b.x + 3, Y: b.y + l.rows + 1 + 3, Button: tea.MouseLeft})
	if p.sel != 3 || selectedLine(t, p.Render(b.w, b.h, true)) != `▸   62 text(2) "id"` {
		t.Fatalf("click on the fourth item line: selected %d", p.sel)
	}
	// A click on the offset column selects nothing new.
	m.Update(tea.MouseClickMsg{X: b.x, Y: b.y, Button: tea.MouseLeft})
	if p.sel != 3 {
		t.Errorf("click on the offset column: selected %d", p.sel)
	}
}

// A frame without a body to annotate has no items, no list and no hint:
// the item keys do nothing.
func TestHexPaneWithoutItems(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 160, 45)
	selectWhere(t, m, func(f *capture.Frame) bool { return f.Chan.Kind == capture.Stream && f.Size > 8 })
	press(m, "x")
	press(m, "]")
	b := m.layout.body(paneHex)
	if out := ansi.Strip(m.hex.Render(b.w, b.h, true)); m.hex.sel != -1 || strings.Contains(out, "items") || strings.Contains(out, "▸") {
		t.Errorf("a stream chunk: selected %d, pane\n%s", m.hex.sel, out)
	}
}
