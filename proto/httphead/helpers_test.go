package httphead

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// checkFieldsCover asserts that fields tile [0, n) in order without gaps or overlaps.
func checkFieldsCover(t testing.TB, fields []proto.Field, n int) {
	t.Helper()
	off := 0
	for _, f := range fields {
		if f.Offset != off || f.Len <= 0 {
			t.Fatalf("field %q at %d+%d does not continue at %d: %+v", f.Name, f.Offset, f.Len, off, fields)
		}
		off += f.Len
	}
	if off != n {
		t.Fatalf("fields cover %d bytes, want %d: %+v", off, n, fields)
	}
}
