package ui

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// residentMetrics are what the runtime holds from the system, and the part
// of it given back: their difference is what the soft memory limit bounds.
var residentMetrics = []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}

// resident returns the memory the Go runtime holds and has not given back
// to the system.
func resident() int64 {
	s := append([]metrics.Sample(nil), residentMetrics...)
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// floodPeak appends n flood frames to the model's store and lets the
// model's index read them as refreshes do, with a filter set, and returns
// the most memory the runtime held at any refresh.
func floodPeak(t testing.TB, m *Model, n int) int64 {
	next := floodFrames(t)
	m.applyFilter("tools")
	var peak int64
	for i := range n {
		m.cfg.Store.Append(next(i))
		if i%scanBatch == scanBatch-1 {
			m.Update(refreshMsg{at: time.Now()})
			peak = max(peak, resident())
		}
	}
	m.Update(refreshMsg{at: time.Now()})
	return max(peak, resident())
}

// heldMetrics are what a weighing reads: the collector's heap goal, and
// the memory the runtime holds beside the heap's objects (what it holds
// from the system, less what it gave back, the free heap it may give
// back, and the objects themselves: the rest of the heap's spans in use,
// and all outside the heap).
var heldMetrics = []metrics.Sample{
	{Name: "/gc/heap/goal:bytes"},
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
	{Name: "/memory/classes/heap/free:bytes"},
	{Name: "/memory/classes/heap/objects:bytes"},
}

// held is one weighing, after a full collection.
type held struct {
	goal, beside, live int64
}

// weigh collects garbage and reads what the runtime will let itself hold
// before it collects again: its heap goal, and the memory beside the
// heap's objects.
func weigh() held {
	runtime.GC()
	s := append([]metrics.Sample(nil), heldMetrics...)
	metrics.Read(s)
	v := func(i int) int64 { return int64(s[i].Value.Uint64()) }
	return held{goal: v(0), beside: v(1) - v(2) - v(3) - v(4), live: v(4)}
}

// floodWeighed appends n flood frames to the model's store and lets the
// model's index read them as refreshes do, with a filter set, and weighs
// the runtime (weigh) every weighEvery refreshes and at the end.
func floodWeighed(t testing.TB, m *Model, n int) []held {
	const weighEvery = 20
	next := floodFrames(t)
	m.applyFilter("tools")
	var w []held
	for i := range n {
		m.cfg.Store.Append(next(i))
		if i%scanBatch == scanBatch-1 {
			m.Update(refreshMsg{at: time.Now()})
			if (i/scanBatch)%weighEvery == weighEvery-1 {
				w = append(w, weigh())
			}
		}
	}
	m.Update(refreshMsg{at: time.Now()})
	return append(w, weigh())
}

// A TUI flooded past its store's caps holds no more memory than its
// ResidentLimit, not twice its live heap as Go's default collector target
// allows: the store's budget is large beside the index here, as it is at
// the defaults.
//
// What the runtime lets itself hold before it collects is its heap goal
// plus the memory beside the heap's objects (the rest of their spans, and
// all outside the heap); under the TUI's soft memory limit the goal
// leaves room for it, where the default target is twice the
// live heap whatever the limit. It is weighed after a full collection at
// fixed points of the flood, not sampled while the flood runs, so that the
// collector's pace on a loaded machine (how far a burst runs ahead of a
// collection) does not decide it.
//
// The runtime's memory is the whole process's, so the flood runs in a
// test process of its own: what other tests of the package left behind
// would otherwise count against the limit.
func TestTUIResidentWithinLimitUnderFlood(t *testing.T) {
	if os.Getenv(residentChildEnv) == "" {
		runAlone(t, "TestTUIResidentWithinLimitUnderFlood")
		return
	}
	cfg := capture.Config{MaxFrames: 400_000, MaxBytes: 128 << 20, MaxStreams: 1, StreamHead: 1, StreamTail: 1}
	st := capture.NewStore(cfg)
	restore := LimitResident(st)
	defer restore()
	runtime.GC()
	m := newTestModel(t, st, 200, 60)
	weighed := floodWeighed(t, m, 2*cfg.MaxFrames)
	limit := ResidentLimit(st)
	s := st.Stats()
	if s.Evicted == 0 {
		t.Fatalf("the flood did not fill the store: %+v", s)
	}
	mib := func(n int64) float64 { return float64(n) / (1 << 20) }
	t.Logf("%d frames held (%d evicted); limit %.1f MiB", s.Frames, s.Evicted, mib(limit))
	for i, w := range weighed {
		t.Logf("weighing %d: live heap %.1f MiB, heap goal %.1f MiB, beside the objects %.1f MiB", i+1, mib(w.live), mib(w.goal), mib(w.beside))
		if w.goal+w.beside > limit {
			t.Errorf("weighing %d of the flood: the runtime lets itself hold %.1f MiB (heap goal %.1f MiB for %.1f MiB live, %.1f MiB beside the objects), over the TUI's limit of %.1f MiB",
				i+1, mib(w.goal+w.beside), mib(w.goal), mib(w.live), mib(w.beside), mib(limit))
		}
	}
	runtime.KeepAlive(m)
}

// TUIs open at once add their limits up, and the limit there was before
// the first returns with the last, whatever order they close in.
func TestLimitResidentAddsUpAndRestores(t *testing.T) {
	withoutGOMEMLIMIT(t)
	before := debug.SetMemoryLimit(-1)
	a := capture.NewStore(capture.Config{MaxBytes: 8 << 20})
	b := capture.NewStore(capture.Config{MaxBytes: 16 << 20})
	closeA := LimitResident(a)
	closeB := LimitResident(b)
	if got, want := debug.SetMemoryLimit(-1), ResidentLimit(a)+ResidentLimit(b); got != want {
		t.Fatalf("with two TUIs the limit is %d, want %d", got, want)
	}
	closeA()
	closeA()
	if got, want := debug.SetMemoryLimit(-1), ResidentLimit(b); got != want {
		t.Fatalf("after the first TUI closed the limit is %d, want %d", got, want)
	}
	closeB()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Fatalf("after the last TUI closed the limit is %d, want %d as before", got, before)
	}
}

// residentChildEnv marks the test process runAlone starts.
const residentChildEnv = "MCPSCOPE_RESIDENT_TEST_CHILD"

// runAlone runs the test named test again in a test process of its own and
// fails t with its output when it fails there.
func runAlone(t *testing.T, test string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // the child's own waits are bounded by the hang guard
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
	cmd.Env = append(environWithout("GOMEMLIMIT"), residentChildEnv+"=1") // the TUI keeps a user's GOMEMLIMIT; the test measures its own limit
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s in a process of its own was still running after %s:\n%s", test, guard.Run, out)
	}
	if err != nil {
		t.Fatalf("%s in a process of its own: %v\n%s", test, err, out)
	}
	t.Logf("%s in a process of its own:\n%s", test, out)
}

// withoutGOMEMLIMIT unsets GOMEMLIMIT for t (LimitResident leaves a user's
// limit alone), putting it back when t ends.
func withoutGOMEMLIMIT(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "") // restores the value when t ends
	if err := os.Unsetenv("GOMEMLIMIT"); err != nil {
		t.Fatal(err)
	}
}

// environWithout is the process's environment less the variable name.
func environWithout(name string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, name+"=") {
			env = append(env, kv)
		}
	}
	return env
}
