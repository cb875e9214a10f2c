package client

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// requestTimers are the two limits of one request: the idle limit, which
// progress restarts, and the max time, which nothing extends. Both start
// before the request is sent: a send that a server which stopped reading
// never takes is bounded like the wait for the answer. One timer serves
// both: it runs out at whichever limit comes first, and fired says which
// did (a wait blocked on two timers costs the runtime twice as much).
type requestTimers struct {
	cfg    *callConfig
	start  time.Time
	idleAt time.Time   // when the idle limit runs out; bump moves it
	timer  *time.Timer // runs out at the earlier of idleAt and the max time
}

// startTimers starts the limits of one request now.
func startTimers(cfg *callConfig) *requestTimers {
	now := time.Now()
	return &requestTimers{
		cfg:    cfg,
		start:  now,
		idleAt: now.Add(cfg.timeout),
		timer:  time.NewTimer(min(cfg.timeout, cfg.hard)),
	}
}

// stop releases the timer.
func (r *requestTimers) stop() { r.timer.Stop() }

// C is the channel of the timer: a limit may have run out; fired tells.
func (r *requestTimers) C() <-chan time.Time { return r.timer.C }

// bump restarts the idle limit: a sign of life arrived.
func (r *requestTimers) bump() {
	now := time.Now()
	r.idleAt = now.Add(r.cfg.timeout)
	r.timer.Reset(r.nextAt().Sub(now))
}

// nextAt is when the first limit runs out.
func (r *requestTimers) nextAt() time.Time {
	hardAt := r.start.Add(r.cfg.hard)
	if r.idleAt.Before(hardAt) {
		return r.idleAt
	}
	return hardAt
}

// fired is called when the timer ran out: it reports whether a limit ran
// out, and whether it was the max time. When both have run out by now (a
// timer that fired late), the one that ran out first is named, the idle
// limit winning a tie. When neither did (the idle limit moved meanwhile),
// the timer is set again.
func (r *requestTimers) fired() (expired, maxTime bool) {
	now := time.Now()
	hardAt := r.start.Add(r.cfg.hard)
	idleOut, hardOut := !now.Before(r.idleAt), !now.Before(hardAt)
	switch {
	case idleOut && hardOut:
		return true, hardAt.Before(r.idleAt)
	case idleOut:
		return true, false
	case hardOut:
		return true, true
	}
	r.timer.Reset(r.nextAt().Sub(now))
	return false, false
}

// sendContext bounds the send of the request by whichever limit runs out
// first (nothing restarts the idle timer before the request is out).
func (r *requestTimers) sendContext(ctx context.Context) *sendDeadline {
	return withSendDeadline(ctx, r.start.Add(min(r.cfg.timeout, r.cfg.hard)))
}

// expired is the error of a request whose limit ran out: the max time when
// maxTime is set, the idle limit otherwise. sending, when not nil, is why
// the request never went out whole.
func (r *requestTimers) expired(w *waiter, maxTime bool, sending error) *TimeoutError {
	limit := r.cfg.timeout
	if maxTime {
		limit = r.cfg.hard
	}
	te := &TimeoutError{Method: w.method, ID: w.id, After: limit.String(), MaxTime: maxTime, Sending: sending}
	if !cancellable(w.method) {
		te.Then = "not cancelled: initialize is never cancelled"
		if r.cfg.handshake {
			te.Then = "closed the connection instead of cancelling it (initialize is never cancelled)"
		}
	}
	return te
}

// expire ends the wait for w when a limit ran out (the max time when
// maxTime is set): w is abandoned, unless its call lets it linger.
func (s *Session) expire(w *waiter, timers *requestTimers, maxTime bool) (json.RawMessage, error) {
	err := timers.expired(w, maxTime, nil)
	if timers.cfg.linger {
		err.Then = "still waiting for it"
		timers.cfg.lingering = w
		return nil, err
	}
	return s.abandon(w, err)
}

// sendExpired is the error of a request whose limit ran out before it was
// sent whole.
func (r *requestTimers) sendExpired(w *waiter, err error) *TimeoutError {
	return r.expired(w, r.cfg.hard <= r.cfg.timeout, err)
}

// cancellable reports whether a request may be cancelled on the wire:
// every request but initialize, which the spec forbids cancelling.
func cancellable(method string) bool { return method != mcp.MethodInitialize }

// sendLimit bounds a send that is not a request (a notification, an
// answer): by the idle limit, and never past the max time.
func (s *Session) sendLimit() time.Duration { return min(s.opts.Timeout, s.opts.HardTimeout) }
