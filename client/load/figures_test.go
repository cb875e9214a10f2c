package load

import (
	"context"
	"testing"
	"time"
)

// HDR's ValueAtQuantile answers a bucket's upper bound: every percentile
// is capped at the exact max, and min is the exact fastest call.
func TestPercentilesNeverPassMax(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	n := 0
	snap, err := run(context.Background(), Config{Concurrency: 1, Requests: 4}, func(ctx context.Context) error {
		n++
		if n == 1 {
			clk.advance(388113 * time.Microsecond) // a bucket above holds values up to ~388.2ms
		} else {
			clk.advance(388114 * time.Microsecond)
		}
		return nil
	}, nil, 0, clk)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Max != 388114*time.Microsecond || snap.Min != 388113*time.Microsecond {
		t.Errorf("min %s max %s, want 388.113ms and 388.114ms", snap.Min, snap.Max)
	}
	for name, p := range map[string]time.Duration{"p50": snap.P50, "p90": snap.P90, "p99": snap.P99, "mean": snap.Mean} {
		if p > snap.Max || p < snap.Min {
			t.Errorf("%s %s outside [%s, %s]", name, p, snap.Min, snap.Max)
		}
	}
}

// The window's percentiles are capped at the window's max too.
func TestWindowPercentilesNeverPassMax(t *testing.T) {
	t.Parallel()
	m := newMeter(0)
	m.record(388114*time.Microsecond, "")
	s := m.snapshot(time.Second, 1, 1, true)
	if s.Window.P50 > s.Window.Max || s.Window.P99 > s.Window.Max {
		t.Errorf("window p50 %s p99 %s max %s", s.Window.P50, s.Window.P99, s.Window.Max)
	}
}

// Coordinated omission: at a rate of 100/s, one call stalled 1s holds
// back the ~100 calls due behind it; they are timed from the instant the
// schedule had them due, so the stall shows in the percentiles (measured
// from their late start, all but one would look fast). The run then
// catches up: every call due is started.
func TestRateTimesCallsFromTheirScheduledStart(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	n := 0
	snap, err := run(context.Background(), Config{Concurrency: 1, Rate: 100, Duration: 3 * time.Second}, func(ctx context.Context) error {
		n++
		if n == 50 {
			clk.advance(time.Second)
		} else {
			clk.advance(100 * time.Microsecond)
		}
		return nil
	}, nil, 0, clk)
	if err != nil {
		t.Fatal(err)
	}
	// The ~100 calls due during the stall start late by 1s down to 0:
	// a third of the run, so p90 lies among them.
	if snap.P90 < 500*time.Millisecond || snap.Max < time.Second {
		t.Errorf("p90 %s max %s: the calls the stall held back are not in the figures", snap.P90, snap.Max)
	}
	if snap.Scheduled != 300 || snap.Started != 300 {
		t.Errorf("scheduled %d started %d, want 300 of each", snap.Scheduled, snap.Started)
	}
}

// A run that cannot keep the rate (one worker, calls of 20ms at 100/s)
// starts fewer calls than the schedule had due, and says how many fewer.
func TestRateShortfall(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	snap, err := run(context.Background(), Config{Concurrency: 1, Rate: 100, Duration: time.Second}, func(ctx context.Context) error {
		clk.advance(20 * time.Millisecond)
		return nil
	}, nil, 0, clk)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Started != 50 || snap.Scheduled != 100 {
		t.Errorf("started %d of %d scheduled, want 50 of 100", snap.Started, snap.Scheduled)
	}
	// The last call started at 980ms was due at 490ms.
	if snap.Max != 510*time.Millisecond {
		t.Errorf("max %s, want 510ms", snap.Max)
	}
}

// Without a stall, the scheduled and started counts agree and a call's
// latency is its own.
func TestRateKeptHasNoShortfall(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	snap, err := run(context.Background(), Config{Concurrency: 2, Rate: 50, Requests: 10}, func(ctx context.Context) error {
		clk.advance(time.Millisecond)
		return nil
	}, nil, 0, clk)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Started != 10 || snap.Scheduled != 10 || snap.Max > 2*time.Millisecond {
		t.Errorf("started %d scheduled %d max %s, want 10, 10, ≤ 2ms", snap.Started, snap.Scheduled, snap.Max)
	}
}

// The successful calls a second leave out the failed ones.
func TestOKRateCountsSuccessesOnly(t *testing.T) {
	t.Parallel()
	m := newMeter(0)
	m.record(time.Millisecond, "")
	m.record(time.Millisecond, KindTimeout)
	m.record(time.Millisecond, KindConnection)
	m.record(time.Millisecond, "")
	s := m.snapshot(2*time.Second, 4, 4, false)
	if s.Throughput != 2 || s.OKRate != 1 {
		t.Errorf("throughput %g ok/s %g, want 2 and 1", s.Throughput, s.OKRate)
	}
}
