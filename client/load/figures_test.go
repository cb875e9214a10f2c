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
// schedule had them due, so the stall shows in the percentiles, and the
// starts the run fell short of are counted.
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
	// Calls 51 on start late, each 10ms after the previous: the schedule
	// never catches up, so each waits ~1s past its due instant.
	if snap.P90 < 900*time.Millisecond || snap.Max < time.Second {
		t.Errorf("p90 %s max %s: the calls the stall held back are not in the figures", snap.P90, snap.Max)
	}
	if snap.Scheduled != 300 || snap.Started >= snap.Scheduled {
		t.Errorf("scheduled %d started %d, want 300 scheduled and a shortfall", snap.Scheduled, snap.Started)
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
