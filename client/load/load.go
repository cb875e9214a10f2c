// Package load runs one call again and again, at a concurrency and a
// rate, and measures throughput, errors by kind and latency percentiles.
//
// Latencies go to an HDR histogram (bounded memory whatever the run's
// length), from 1µs to Config.MaxLatency at 3 significant figures: the
// whole run's, and one per interval between snapshots (Snapshot.Window),
// which a live chart plots. Only calls the server answered are timed (a
// success, a JSON-RPC error, a tool result with isError); a timeout, a
// lost connection or a cancellation is counted among the errors by kind.
package load

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// Config says how hard and how long to load.
type Config struct {
	Concurrency int           // calls in flight at most (default 1)
	Rate        float64       // calls started per second at most; 0: as fast as they finish
	Duration    time.Duration // stop starting calls after this long; 0: until Requests
	Requests    int           // stop after starting this many calls; 0: until Duration
	// MaxLatency is the longest latency the histogram tells apart; a
	// longer one counts as MaxLatency (default DefaultMaxLatency). Give
	// the calls' own hard time limit.
	MaxLatency time.Duration
}

// DefaultMaxLatency is the histogram's top when Config.MaxLatency is 0.
const DefaultMaxLatency = 10 * time.Minute

// Call makes one call and reports its outcome: nil, or an error whose kind
// Kind names. It may call Answered when the answer is in, so that what it
// does with it afterwards (judging a tool result) is not timed, or Took
// with the latency it measured itself.
type Call func(ctx context.Context) error

// Snapshot is the state of a run so far, or at its end.
type Snapshot struct {
	Elapsed            time.Duration
	Started            int
	Completed          int
	Errors             map[string]int // by kind
	P50, P90, P99, Max time.Duration
	Throughput         float64 // completed calls per second
	// Window is what the calls completed since the previous snapshot
	// measured: what a live chart plots.
	Window Window
	// Min and Mean complete the latency figures of the whole run.
	Min, Mean time.Duration
	// Timed is how many calls have a latency: those the server answered.
	Timed int
	// OKRate is the successful calls a second (Throughput counts the
	// failed ones too).
	OKRate float64
	// Scheduled is how many calls the rate had due by Elapsed (Started
	// when no rate is set): Scheduled - Started is the shortfall of a
	// client or server that could not keep the rate.
	Scheduled int
	// Unfinished is how many calls the run's stop cut off (an interrupt,
	// a lost connection): they are not Completed and not errors.
	Unfinished int
}

// ErrorCount is the number of calls that failed, whatever their kind.
func (s Snapshot) ErrorCount() int { return errorCount(s.Errors) }

// Window is the calls completed in one interval between snapshots.
type Window struct {
	Completed, Errors int
	P50, P99, Max     time.Duration
}

// Run loads call as cfg says, calling progress (if not nil) with a
// snapshot about every interval, and returns the final snapshot.
//
// Calls stop being started when Duration has passed or Requests have
// started; those in flight then finish within their own time limits. When
// ctx ends first, the calls in flight see it, and Run returns the
// snapshot so far with the context's cause. progress is never called
// after Run has returned.
func Run(ctx context.Context, cfg Config, call Call, progress func(Snapshot), interval time.Duration) (Snapshot, error) {
	return run(ctx, cfg, call, progress, interval, systemClock{})
}

// Validate checks cfg: a limit to stop at, nothing negative.
func (cfg Config) Validate() error {
	switch {
	case cfg.Concurrency < 0:
		return fmt.Errorf("load: concurrency must not be negative, got %d", cfg.Concurrency)
	case cfg.Rate < 0 || math.IsNaN(cfg.Rate) || math.IsInf(cfg.Rate, 0):
		return fmt.Errorf("load: rate must be a finite number of calls a second, got %g", cfg.Rate)
	case cfg.Duration < 0:
		return fmt.Errorf("load: duration must not be negative, got %s", cfg.Duration)
	case cfg.Requests < 0:
		return fmt.Errorf("load: requests must not be negative, got %d", cfg.Requests)
	case cfg.MaxLatency < 0:
		return fmt.Errorf("load: max latency must not be negative, got %s", cfg.MaxLatency)
	case cfg.Duration == 0 && cfg.Requests == 0:
		return errors.New("load: a run needs a duration or a number of requests")
	}
	return nil
}

// run is Run on the clock clk.
func run(ctx context.Context, cfg Config, call Call, progress func(Snapshot), interval time.Duration, clk clock) (Snapshot, error) {
	if err := cfg.Validate(); err != nil {
		return Snapshot{}, err
	}
	workers := max(cfg.Concurrency, 1)
	if cfg.Requests > 0 {
		workers = min(workers, cfg.Requests)
	}
	start := clk.Now()
	sched := newSchedule(cfg, start, clk)
	m := newMeter(cfg.MaxLatency)

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { work(ctx, sched, m, call, clk) })
	}
	done := make(chan struct{})
	var reporter sync.WaitGroup
	if progress != nil && interval > 0 {
		reporter.Go(func() { report(done, m, sched, progress, interval, start, clk) })
	}
	wg.Wait()
	close(done)
	reporter.Wait()

	elapsed := clk.Now().Sub(start)
	snap := m.snapshot(elapsed, sched.Started(), sched.Scheduled(elapsed), false)
	if ctx.Err() != nil {
		return snap, context.Cause(ctx)
	}
	return snap, nil
}

// work is one worker: it starts calls while the schedule allows and
// records each outcome. A call's latency runs from the instant it was due
// (with a rate, its place in the schedule: a call started late because
// the ones before it were slow waited that long too), so a stall is not
// hidden by the calls it held back (coordinated omission). A call cut off
// by the run's stop is unfinished: neither an error nor a success.
func work(ctx context.Context, sched *schedule, m *meter, call Call, clk clock) {
	st := &stamp{clk: clk}
	cctx := context.WithValue(ctx, answeredKey{}, st)
	for {
		due, ok := sched.next(ctx)
		if !ok {
			return
		}
		st.at, st.took = time.Time{}, 0
		t0 := clk.Now()
		err := call(cctx)
		kind := Kind(err)
		if kind == KindCanceled && ctx.Err() != nil {
			m.cutOff()
			continue
		}
		took := st.took
		if took <= 0 {
			end := st.at
			if end.IsZero() {
				end = clk.Now()
			}
			took = end.Sub(t0)
		}
		m.record(took+t0.Sub(due), kind)
	}
}

// report calls progress every interval until done is closed.
func report(done <-chan struct{}, m *meter, sched *schedule, progress func(Snapshot), interval time.Duration, start time.Time, clk clock) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			elapsed := clk.Now().Sub(start)
			progress(m.snapshot(elapsed, sched.Started(), sched.Scheduled(elapsed), true))
		}
	}
}

// answeredKey keys a call's stamp in its context.
type answeredKey struct{}

// stamp is when a call's answer came, set by Answered, or its latency as
// measured elsewhere, set by Took; one per worker.
type stamp struct {
	clk  clock
	at   time.Time
	took time.Duration
}

// Answered marks the answer of the call ctx belongs to as in: its latency
// ends here. Outside a call of Run it does nothing; a second mark is
// ignored.
func Answered(ctx context.Context) {
	if st, ok := ctx.Value(answeredKey{}).(*stamp); ok && st.at.IsZero() {
		st.at = st.clk.Now()
	}
}

// Took gives the latency of the call ctx belongs to as measured elsewhere
// (from the frames that carried the request out and its answer in, as the
// transport stamped them): it replaces the time Run measures around the
// call. Outside a call of Run, or with d ≤ 0, it does nothing.
func Took(ctx context.Context, d time.Duration) {
	if st, ok := ctx.Value(answeredKey{}).(*stamp); ok && d > 0 {
		st.took = d
	}
}
