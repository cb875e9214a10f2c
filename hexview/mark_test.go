package hexview

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// The marked bytes (a finding's) are painted as a selected item's
// content is, the bytes around them as they were.
func TestMarkIsHighlighted(t *testing.T) {
	st := DefaultStyles(true)
	d := cborControlDump(t)
	d.Selected = -1
	plain := d.Render(0, 1, 16, st)
	d.Mark = proto.Field{Offset: 6, Len: 2}
	marked := d.Render(0, 1, 16, st)
	if marked == plain {
		t.Fatal("the mark changed nothing")
	}
	// The marked bytes start a run of their own, styled as a selected
	// item's content is.
	d.Mark, d.Selected = proto.Field{}, 1 // "jsonrpc": head 67 at 5, content from 6
	selected := d.Render(0, 1, 16, st)
	if got, want := sgrBefore(t, marked, "6a 73"), sgrBefore(t, selected, "6a 73"); got != want {
		t.Errorf("marked bytes styled %q, a selected item's content %q", got, want)
	}
}
