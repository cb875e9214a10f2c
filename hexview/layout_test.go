package hexview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Sixteen bytes a row whenever offset, hex and gutter fit: the full row
// from 78 columns, the tight one from 71 (72 once offsets take 5 digits).
func TestLayoutForWidth(t *testing.T) {
	small, big := controlDump(t), patternDump(1<<16+1)
	full16, tight16, full8 := Layout{PerRow: 16}, Layout{PerRow: 16, Tight: true}, Layout{PerRow: 8}
	cases := []struct {
		d     Dump
		width int
		want  Layout
	}{
		{small, 0, full8}, {small, 70, full8}, {small, 71, tight16}, {small, 77, tight16},
		{small, 78, full16}, {small, 144, Layout{PerRow: 32}},
		{big, 71, full8}, {big, 72, tight16}, {big, 78, full16},
	}
	for _, c := range cases {
		if got := c.d.LayoutFor(c.width); got != c.want {
			t.Errorf("%d bytes at %d columns: %+v, want %+v", len(c.d.Data), c.width, got, c.want)
		}
	}
}

// A tight row has the offset in the digits the dump needs, one space, and
// the gutter without bars; every row of it fits the width LayoutFor asks.
func TestTightRow(t *testing.T) {
	d := controlDump(t)
	tight := Layout{PerRow: 16, Tight: true}
	rows := strings.Split(ansi.Strip(d.RenderLayout(0, 100, tight, DefaultStyles(true))), "\n")
	want := `0000 00 00 00 e3 7b 22 6a 73  6f 6e 72 70 63 22 3a 22  ....{"jsonrpc":"`
	if rows[0] != want {
		t.Fatalf("first row\n got %q\nwant %q", rows[0], want)
	}
	if len(rows) != d.Rows(16) || !strings.HasPrefix(rows[len(rows)-1], "00e0 ") {
		t.Fatalf("%d rows, last %q", len(rows), rows[len(rows)-1])
	}
	for _, r := range rows {
		if n := ansi.StringWidth(r); n > 71 {
			t.Errorf("row %q is %d wide, over 71", r, n)
		}
	}
	big := patternDump(1<<16 + 1)
	if last := ansi.Strip(big.RenderLayout(big.Rows(16)-1, 1, tight, Styles{})); !strings.HasPrefix(last, "10000 00 ") {
		t.Errorf("last row of a 64 KiB dump %q, want a 5-digit offset", last)
	}
}
