package ui

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// millionFrames fills a store with 1,000,000 frames: requests, CBOR
// results, progress datagrams and stderr lines in turn. The frames share
// their bytes, so the budget is raised for the store to hold them all.
func millionFrames(b *testing.B) *capture.Store {
	b.Helper()
	st := capture.NewStore(capture.Config{MaxBytes: 4 << 30})
	c := &clock{}
	templates := []*capture.Frame{
		controlFrame(b, capture.Out, c.next(), proto.EncCBOR, request(b, 7, "tools/call", map[string]any{"name": "analyze"})),
		controlFrame(b, capture.In, c.next(), proto.EncCBOR, result(b, 7, map[string]any{"content": []any{}})),
		datagramFrame(b, c.next(), flow.ChannelProgress, 7, encode(b, proto.EncCBOR, flow.ProgressDatagram{Progress: 1, Total: 2}), proto.EncCBOR),
		stderrFrame(c.next(), "working"),
	}
	for i := range 1_000_000 {
		f := *templates[i%len(templates)]
		f.Time = t0.Add(time.Duration(i) * time.Microsecond)
		st.Append(&f)
	}
	return st
}

// BenchmarkRenderMillionFrames renders the whole screen (View) with
// 1,000,000 frames in the store, in the split layout, once following the
// newest frame and once with a selection in the middle.
func BenchmarkRenderMillionFrames(b *testing.B) {
	st := millionFrames(b)
	if st.Len() != 1_000_000 {
		b.Fatalf("the store holds %d frames", st.Len())
	}
	for _, c := range []struct {
		name string
		seq  uint64
	}{{"follow", 0}, {"middle", 500_000}} {
		b.Run(c.name, func(b *testing.B) {
			m := newTestModel(b, st, 200, 60)
			if c.seq > 0 {
				m.traffic.selectSeq(c.seq)
				m.syncSelection()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				_ = m.View()
			}
		})
	}
}
