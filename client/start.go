package client

import (
	"context"
	"errors"
	"fmt"
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
// caller that starts a transport without a session.
func StartContext(ctx context.Context, timeout, maxTime time.Duration) (context.Context, context.CancelFunc) {
	limit := &StartTimeoutError{After: timeout}
	if maxTime < timeout {
		limit = &StartTimeoutError{After: maxTime, MaxTime: true}
	}
	return context.WithTimeoutCause(context.WithValue(ctx, startBoundKey{}, limit), limit.After, limit)
}

// startBoundKey keys the limit StartContext put on a context.
type startBoundKey struct{}

// StartBound is the limit StartContext put on ctx, before it ran out, or
// nil: a transport whose set-up continues past Start (the fallback of
// Streamable HTTP to the legacy transport) bounds it by the same limit.
func StartBound(ctx context.Context) *StartTimeoutError {
	limit, _ := ctx.Value(startBoundKey{}).(*StartTimeoutError)
	return limit
}

// startFailure is Start's err as Connect returns it: a limit the transport
// did not word is said after its reason.
func startFailure(ctx context.Context, err error) error {
	if limit := StartLimit(ctx); limit != nil && !errors.As(err, new(*StartTimeoutError)) {
		err = fmt.Errorf("%w: the transport did not come up %w", err, limit)
	}
	return &ConnectionError{Err: err}
}
