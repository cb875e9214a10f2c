package load

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// clock is the time a run reads and sleeps on; tests give a fake one.
type clock interface {
	Now() time.Time
	// Sleep waits d, or until ctx ends (then it returns false).
	Sleep(ctx context.Context, d time.Duration) bool
}

// systemClock is the real time.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// schedule decides when each call starts: no more than Requests, none at
// or past the end of Duration, and with a Rate the n-th call (from 0) due
// n/Rate seconds after the run's start: an open schedule, which a run that
// fell behind (a stalled answer held the workers) follows again by
// starting the calls already due at once, as users arriving on time would
// have sent them.
type schedule struct {
	mu       sync.Mutex // held while a worker waits for its turn
	clk      clock
	requests int       // 0: no limit
	deadline time.Time // zero: none
	started  atomic.Int64
	start    time.Time     // the run's start
	rate     float64       // calls a second; 0: no rate
	duration time.Duration // 0: no duration
}

// newSchedule returns the schedule of cfg for a run started at start.
func newSchedule(cfg Config, start time.Time, clk clock) *schedule {
	s := &schedule{clk: clk, requests: cfg.Requests, start: start, rate: cfg.Rate, duration: cfg.Duration}
	if cfg.Duration > 0 {
		s.deadline = start.Add(cfg.Duration)
	}
	return s
}

// Started is how many calls have started.
func (s *schedule) Started() int { return int(s.started.Load()) }

// next waits for the next call's turn and reports whether it may start
// and the instant it was due: with a rate, its place in the schedule,
// even when the run fell behind and starts it later; without, when it
// starts. ok is false once the run's limits are reached or ctx has ended.
func (s *schedule) next(ctx context.Context) (due time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.started.Load()
	if ctx.Err() != nil || s.requests > 0 && n >= int64(s.requests) {
		return time.Time{}, false
	}
	now := s.clk.Now()
	due = now
	if s.rate > 0 {
		due = s.start.Add(time.Duration(float64(n) / s.rate * float64(time.Second)))
	}
	if s.ended(now) || s.ended(due) {
		return time.Time{}, false
	}
	if wait := due.Sub(now); wait > 0 && !s.clk.Sleep(ctx, wait) {
		return time.Time{}, false
	}
	s.started.Add(1)
	return due, true
}

// Scheduled is how many calls the rate had due by elapsed into the run
// (those due at 0, 1/Rate … up to elapsed, within Duration and Requests);
// without a rate, the calls started.
func (s *schedule) Scheduled(elapsed time.Duration) int {
	if s.rate <= 0 {
		return s.Started()
	}
	n := math.Floor(elapsed.Seconds()*s.rate+1e-9) + 1
	if s.duration > 0 {
		n = min(n, math.Ceil(s.duration.Seconds()*s.rate-1e-9))
	}
	if s.requests > 0 {
		n = min(n, float64(s.requests))
	}
	return int(max(n, 0))
}

// ended reports whether t is at or past the run's end.
func (s *schedule) ended(t time.Time) bool {
	return !s.deadline.IsZero() && !t.Before(s.deadline)
}
