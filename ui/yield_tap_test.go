package ui

import (
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// The tap the TUI hands a transport stores every frame as the store alone
// would, in order, and yields once every yieldEvery frames, so that a
// flood read without a pause lets the program's event loop run.
func TestYieldingTapYieldsEveryFewFrames(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	yields := 0
	tap := newYieldingTap(st)
	tap.yield = func() { yields++ }
	const n = 10*yieldEvery + 3
	for i := range n {
		f := controlFrame(t, capture.In, t0, proto.EncJSON, notification(t, "notifications/message", map[string]any{"data": i}))
		if seq := tap.Append(f); seq != uint64(i+1) {
			t.Fatalf("frame %d stored as seq %d", i+1, seq)
		}
	}
	if yields != n/yieldEvery || st.Stats().TotalFrames != n {
		t.Errorf("%d yields for %d frames; the store holds %d frames", yields, n, st.Stats().TotalFrames)
	}
}
