// Package load runs one call again and again, at a concurrency and a
// rate, and measures throughput, errors by kind and latency percentiles.
package load

import (
	"context"
	"errors"
	"time"
)

// Config says how hard and how long to load.
type Config struct {
	Concurrency int           // calls in flight at most (default 1)
	Rate        float64       // calls started per second at most; 0: as fast as they finish
	Duration    time.Duration // stop starting calls after this long; 0: until Requests
	Requests    int           // stop after starting this many calls; 0: until Duration
}

// Call makes one call and reports its outcome: nil, or an error whose kind
// Kind names.
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
}

// Window is the calls completed in one interval between snapshots.
type Window struct {
	Completed, Errors int
	P50, P99, Max     time.Duration
}

// Run loads call as cfg says, calling progress (if not nil) with a
// snapshot about every interval, and returns the final snapshot.
func Run(ctx context.Context, cfg Config, call Call, progress func(Snapshot), interval time.Duration) (Snapshot, error) {
	return Snapshot{}, errors.New("load: not built yet")
}
