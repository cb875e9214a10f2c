package client

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// requestTimers are the two limits of one request: the idle timer, which
// progress restarts, and the max time, which nothing extends. Both start
// before the request is sent: a send that a server which stopped reading
// never takes is bounded like the wait for the answer.
type requestTimers struct {
	cfg   *callConfig
	start time.Time
	idle  *time.Timer
	hard  *time.Timer
}

// startTimers starts the limits of one request now.
func startTimers(cfg *callConfig) *requestTimers {
	return &requestTimers{
		cfg:   cfg,
		start: time.Now(),
		idle:  time.NewTimer(cfg.timeout),
		hard:  time.NewTimer(cfg.hard),
	}
}

// stop releases the timers.
func (r *requestTimers) stop() {
	r.idle.Stop()
	r.hard.Stop()
}

// bump restarts the idle timer: a sign of life arrived.
func (r *requestTimers) bump() { r.idle.Reset(r.cfg.timeout) }

// sendContext bounds the send of the request by whichever limit runs out
// first (nothing restarts the idle timer before the request is out).
func (r *requestTimers) sendContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, r.start.Add(min(r.cfg.timeout, r.cfg.hard)))
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
