package ui

import (
	"strings"
	"testing"
)

// At 160 columns the hex pane of the split is 71 wide: it shows 16 bytes
// a row in the tight row; at 140 (62 wide) 8 bytes a row.
func TestHexPaneShows16BytesWhenTheyFit(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 160, 45)
	selectWhere(t, m, isMethod("initialize"))
	if w := m.layout.area[paneHex].w; w != 71 {
		t.Fatalf("the hex pane is %d wide at 160 columns, the test wants 71", w)
	}
	row := `0000 00 00 00 58 7b 22 6a 73  6f 6e 72 70 63 22 3a 22  ...X{"jsonrpc":"`
	if s := screenText(m); !strings.Contains(s, row) {
		t.Fatalf("the screen at 160 columns has no row of 16 bytes %q:\n%s", row, s)
	}
	golden(t, "hex_tight", m.hex.Render(71, 6, true))

	m = newTestModel(t, sampleStore(t), 140, 45)
	selectWhere(t, m, isMethod("initialize"))
	if s := screenText(m); !strings.Contains(s, `00000000  00 00 00 58 7b 22 6a 73  |...X{"js|`) {
		t.Fatalf("the screen at 140 columns has no row of 8 bytes:\n%s", s)
	}
}
