package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
)

// TestStreamsSaySampled: a stream of 1 MiB of which the store keeps a
// 128 KiB head and a 128 KiB tail says so in its row, in full where the
// type column has room, and in the pane's title while selected; one kept
// whole does not.
func TestStreamsSaySampled(t *testing.T) {
	st := capture.NewStore(capture.Config{StreamHead: 128 << 10, StreamTail: 128 << 10})
	m := newTestModel(t, st, 140, 40)
	st.Append(streamChunk(t0, 4, 1, make([]byte, 300)))
	for i := range 16 {
		st.Append(streamChunk(t0.Add(time.Duration(i)*time.Millisecond), 5, 1, make([]byte, 64<<10)))
	}
	m.Update(refreshMsg{at: t0})
	screen := screenText(m)
	if !strings.Contains(screen, "5/1 sampled: 256.0 KiB of 1.0 MiB kept") {
		t.Errorf("the sampled stream does not say what was kept:\n%s", screen)
	}
	if strings.Count(screen, "KiB kept") != 1 {
		t.Errorf("want one sampled stream row:\n%s", screen)
	}
	golden(t, "streams_sampled", m.streams.Title()+"\n"+m.streams.Render(120, 4, true))
	golden(t, "streams_sampled_narrow", m.streams.Render(80, 4, true))
}
