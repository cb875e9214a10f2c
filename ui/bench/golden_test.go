package bench

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// fixedBench is a bench of echo, not connected, that took ticks of a
// run whose p50 rises and falls and whose p99 spikes once.
func fixedBench(t *testing.T) *Bench {
	t.Helper()
	b := New(screentest.NewHost(), ToolCall("echo", json.RawMessage(`{"message":"hi"}`)), nil)
	b.state = stateRunning
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	for i, p50 := range []float64{1, 1.5, 2, 3, 4, 4, 3, 2, 1.5, 1, 1, 1} {
		p99 := p50 * 2
		if i == 5 {
			p99 = 16
		}
		b.take(load.Snapshot{Window: load.Window{Completed: 100, P50: ms(p50), P99: ms(p99)}})
	}
	b.take(load.Snapshot{}) // a tick in which no call completed
	b.take(load.Snapshot{
		Elapsed: 1300 * time.Millisecond, Started: 1310, Completed: 1300, Throughput: 1000,
		P50: ms(1.5), P90: ms(3.25), P99: ms(8), Max: ms(16.5),
		Errors: map[string]int{"timeout": 7, "RPC -32603 Internal error": 3},
		Window: load.Window{Completed: 100, P50: ms(1), P99: ms(2)},
	})
	return b
}

func TestGoldenBenchRunning(t *testing.T) {
	b := fixedBench(t)
	goldentest.CheckPlain(t, "bench_running", b.Render(80, 20))
}

func TestGoldenBenchReady(t *testing.T) {
	b := New(screentest.NewHost(), Call{Method: "resources/read", Params: json.RawMessage(`{"uri":"demo://a"}`)}, nil)
	goldentest.CheckPlain(t, "bench_ready", b.Render(100, 12))
}

// An error kind holding what a terminal acts on is shown escaped, cut to
// its length, and the line keeps to the width.
func TestGoldenBenchHostileErrorKind(t *testing.T) {
	b := fixedBench(t)
	b.snap.Errors = map[string]int{screentest.Hostile: 2, strings.Repeat("long ", 40): 1}
	b.title = ToolCall("echo"+screentest.Hostile, nil).summary()
	view := b.Title() + "\n" + b.Render(120, 10)
	screentest.AssertSafeView(t, "the bench", view)
	goldentest.CheckPlain(t, "bench_hostile", view)
}

// The chart scales to the highest p99 seen: the tick that reached it
// fills the column; the tick of half of it fills half.
func TestChartScale(t *testing.T) {
	var h history
	h.add(load.Window{Completed: 1, P50: 4 * time.Millisecond, P99: 8 * time.Millisecond})
	h.add(load.Window{Completed: 1, P50: 2 * time.Millisecond, P99: 4 * time.Millisecond})
	st := screentest.NewHost().St
	rows := h.render(axisWidth+2, 4, st)
	got := goldentest.Plain(strings.Join(rows, "\n"))
	want := "" +
		" 8.00ms ┤░\n" +
		"        ┤░\n" +
		"        ┤█░\n" +
		"    0ms ┤██"
	if got != want {
		t.Errorf("chart:\n%s\nwant:\n%s", got, want)
	}
	for range maxPoints + 10 {
		h.add(load.Window{})
	}
	if len(h.points) != maxPoints || h.top != 8*time.Millisecond {
		t.Errorf("after many ticks: %d kept, top %s", len(h.points), h.top)
	}
}
