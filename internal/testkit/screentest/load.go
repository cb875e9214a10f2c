package screentest

import (
	"context"
	"time"

	"github.com/mcpscope/mcpscope/client/load"
)

// LoadInTurn is a load engine for tests of the bench screens: it makes n
// calls one after the other on the caller's goroutine (not load.Run's
// concurrency), counts them, reports one snapshot, and returns it. Each
// error counts under its message; every percentile is the slowest call's
// latency. The context ending stops it early.
func LoadInTurn(n int) func(context.Context, load.Config, load.Call, func(load.Snapshot), time.Duration) (load.Snapshot, error) {
	return func(ctx context.Context, _ load.Config, call load.Call, progress func(load.Snapshot), _ time.Duration) (load.Snapshot, error) {
		s := load.Snapshot{Errors: map[string]int{}}
		start := time.Now()
		for range n {
			if ctx.Err() != nil {
				return s, ctx.Err()
			}
			s.Started++
			t0 := time.Now()
			err := call(ctx)
			d := time.Since(t0)
			s.Completed++
			s.Window.Completed++
			if err != nil {
				s.Errors[err.Error()]++
				s.Window.Errors++
			}
			s.Max, s.Window.Max = max(s.Max, d), max(s.Window.Max, d)
			s.P50, s.P90, s.P99, s.Window.P50, s.Window.P99 = s.Max, s.Max, s.Max, s.Max, s.Max
		}
		s.Elapsed = time.Since(start)
		if secs := s.Elapsed.Seconds(); secs > 0 {
			s.Throughput = float64(s.Completed) / secs
		}
		if progress != nil {
			progress(s)
		}
		return s, nil
	}
}
