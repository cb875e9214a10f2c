package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// StartTimeoutError says a transport did not come up in time: what it
// waited for (a WebSocket upgrade's answer, a legacy SSE stream's endpoint
// event) did not come within the limit Connect gives Transport.Start, the
// request limits (Options.Timeout, and Options.HardTimeout when shorter).
// A transport that words its wait wraps it (see StartLimit).
type StartTimeoutError struct {
	After time.Duration // the limit that ran out
	// MaxTime says the limit was Options.HardTimeout, shorter than the
	// idle limit.
	MaxTime bool
}

func (e *StartTimeoutError) Error() string {
	if e.MaxTime {
		return fmt.Sprintf("within its max time of %s", e.After)
	}
	return "within " + e.After.String()
}

// StartLimit is the limit that ended ctx, a Transport.Start's context,
// or nil when ctx did not end because of it.
func StartLimit(ctx context.Context) *StartTimeoutError {
	var limit *StartTimeoutError
	if errors.As(context.Cause(ctx), &limit) {
		return limit
	}
	return nil
}

// StartContext bounds a Transport.Start by the request limits, timeout
// and maxTime (Options.Timeout and HardTimeout): waiting for a transport
// to come up is one more wait for an answer. Connect uses it; so does a
// caller that starts a transport without a session. The time a user
// spends in the browser authorizing (PauseStart) does not count: that
// wait has a limit of its own.
func StartContext(ctx context.Context, timeout, maxTime time.Duration) (context.Context, context.CancelFunc) {
	limit := &StartTimeoutError{After: timeout}
	if maxTime < timeout {
		limit = &StartTimeoutError{After: maxTime, MaxTime: true}
	}
	return BoundStart(ctx, limit)
}

// BoundStart bounds a transport's set-up by limit, a clock of its own that
// PauseStart stops while the user authorizes: StartContext's limit, or one
// a transport gives again to set-up that continues past Start (the
// fallback of Streamable HTTP to the legacy transport, see StartBound).
func BoundStart(ctx context.Context, limit *StartTimeoutError) (context.Context, context.CancelFunc) {
	c := &startClock{limit: limit, left: limit.After}
	ctx, cancel := context.WithCancelCause(context.WithValue(ctx, startBoundKey{}, c))
	c.cancel = cancel
	c.mu.Lock()
	c.run()
	c.mu.Unlock()
	return ctx, func() {
		c.mu.Lock()
		c.ended = true
		c.timer.Stop()
		c.mu.Unlock()
		cancel(context.Canceled)
	}
}

// CarryStart returns ctx carrying the start limit of from, when from has
// one, without from's cancellation: what a transport runs for its set-up
// under a context of its own (the legacy SSE stream, which outlives
// Start) can still pause the limit while the user authorizes in the
// browser (PauseStart).
func CarryStart(ctx, from context.Context) context.Context {
	if c, ok := from.Value(startBoundKey{}).(*startClock); ok {
		return context.WithValue(ctx, startBoundKey{}, c)
	}
	return ctx
}

// startClock runs out the start limit: after limit.After, less the time
// it was paused.
type startClock struct {
	limit  *StartTimeoutError
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	timer   *time.Timer
	since   time.Time     // when the timer last started
	left    time.Duration // what remains of the limit when it starts again
	pausers int
	ended   bool // the start is over: the clock never runs again
}

// run starts the timer on what is left; c.mu is held.
func (c *startClock) run() {
	c.since = time.Now()
	c.timer = time.AfterFunc(c.left, func() {
		c.mu.Lock()
		c.ended = true
		c.mu.Unlock()
		c.cancel(c.limit)
	})
}

// startBoundKey keys the clock StartContext put on a context.
type startBoundKey struct{}

// StartBound is the limit StartContext put on ctx, or nil: a transport
// whose set-up continues past Start (the fallback of Streamable HTTP to
// the legacy transport) bounds it by the same limit.
func StartBound(ctx context.Context) *StartTimeoutError {
	if c, ok := ctx.Value(startBoundKey{}).(*startClock); ok {
		return c.limit
	}
	return nil
}

// PauseStart stops the start limit of ctx, if it has one, until the
// function it returns is called: the authorization's wait for the user's
// browser, bounded by its own limit, is not cut short by the start's.
func PauseStart(ctx context.Context) (resume func()) {
	c, ok := ctx.Value(startBoundKey{}).(*startClock)
	if !ok {
		return func() {}
	}
	c.mu.Lock()
	c.pausers++
	if c.pausers == 1 && !c.ended && c.timer.Stop() {
		c.left -= time.Since(c.since)
	}
	c.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.pausers--
			if c.pausers == 0 && !c.ended {
				c.run()
			}
		})
	}
}

// startFailure is Start's err as Connect returns it: a limit the transport
// did not word is said after its reason.
func startFailure(ctx context.Context, err error) error {
	if limit := StartLimit(ctx); limit != nil && !errors.As(err, new(*StartTimeoutError)) {
		err = fmt.Errorf("%w: the transport did not come up %w", err, limit)
	}
	return &ConnectionError{Err: err}
}
