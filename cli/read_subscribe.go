package cli

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// resourceWatch is what `read --subscribe` saw: whether a read printed,
// so that an interrupted watch still ends well.
type resourceWatch struct {
	read    atomic.Bool
	pending atomic.Int64 // updates not yet re-read
	signal  chan struct{}
}

// readAndWatch reads uri, subscribes to it and re-reads it after each
// notifications/resources/updated, printing "updated URI" on stderr and
// the contents on stdout (one JSON line a read when piped), until
// --max-time, the end of ctx or the end of the session. Running until
// --max-time is what was asked: it ends well. A lost connection does not
// (exit 3).
func (r *run) readAndWatch(parent context.Context, uri string, w *resourceWatch) error {
	// --max-time bounds the whole watch, a re-read in flight included.
	ctx, stop := context.WithTimeout(parent, r.flags.maxTime)
	defer stop()
	started := time.Now()
	if err := r.readOnce(ctx, uri, w); err != nil {
		return err
	}
	w.signal = make(chan struct{}, 1)
	sub, err := r.session.SubscribeResource(ctx, uri, func(string) {
		w.pending.Add(1)
		select {
		case w.signal <- struct{}{}:
		default: // a re-read is due already: it shows this update too
		}
	})
	if errors.Is(err, client.ErrSubscribeNotDeclared) || errors.Is(err, client.ErrSubscriptionRefused) {
		return withExit(ExitRPCError, fmt.Errorf("--subscribe: %w", err))
	}
	if err != nil {
		// --max-time may end the watch while the server has yet to agree
		// to the subscription: the read printed, the watch ends well.
		if r.watchedLong(parent, ctx, uri, nil, started) {
			return nil
		}
		return fmt.Errorf("--subscribe: %w", err)
	}
	how := "resources/subscribe"
	if id, ok := sub.ListenID(); ok {
		how = fmt.Sprintf("subscriptions/listen (id %s)", id)
	}
	r.io.diag.Println(fmt.Sprintf("subscribed to %s with %s", termtext.Line(uri), how))
	for {
		select {
		case <-w.signal:
			n := w.pending.Swap(0)
			line := "updated " + termtext.Line(uri)
			if n > 1 {
				line += fmt.Sprintf(" (%d updates)", n)
			}
			r.io.diag.Println(line)
			if err := r.readOnce(ctx, uri, w); err != nil {
				if r.watchedLong(parent, ctx, uri, sub, started) {
					return nil
				}
				return err
			}
		case <-sub.Done():
			if r.watchedLong(parent, ctx, uri, sub, started) {
				return nil
			}
			if err := sub.Err(); err != nil {
				return connectionFailed(fmt.Errorf("the subscription to %s ended: %w", uri, err))
			}
			return nil
		case <-ctx.Done():
			if r.watchedLong(parent, ctx, uri, sub, started) {
				return nil
			}
			return ctx.Err()
		}
	}
}

// watchedLong reports whether --max-time ended the watch (ctx, not its
// parent), saying so on stderr; sub is nil when it ended before the
// server agreed to the subscription.
func (r *run) watchedLong(parent, ctx context.Context, uri string, sub *client.ResourceSubscription, started time.Time) bool {
	if parent.Err() != nil || !maxTimeOver(ctx) {
		return false
	}
	seen := "the server did not agree to the subscription in that time"
	if sub != nil {
		n, _ := sub.Updates()
		seen = plural.Count(n, "update", "updates")
	}
	r.io.diag.Println(fmt.Sprintf("watched %s for %s (--max-time): %s", termtext.Line(uri), time.Since(started).Round(time.Millisecond), seen))
	return true
}

// maxTimeOver reports whether ctx's deadline, the watch's --max-time, has
// passed: a request whose own limit is that deadline may end before ctx
// says it is done.
func maxTimeOver(ctx context.Context) bool {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return true
	}
	dl, ok := ctx.Deadline()
	return ok && !time.Now().Before(dl)
}

// readOnce sends resources/read for uri and prints the result.
func (r *run) readOnce(ctx context.Context, uri string, w *resourceWatch) error {
	res, err := r.call(ctx, mcp.MethodResourcesRead, map[string]string{"uri": uri})
	if err != nil {
		return err
	}
	if err := r.emit(ctx, res); err != nil {
		return err
	}
	w.read.Store(true)
	return nil
}

// watchEnd is how an interrupted `read --subscribe` ends: well once a read
// printed, as the watch was meant to run until stopped (errStoppedAsMeant,
// which Execute turns into exit 0).
func watchEnd(ctx context.Context, w *resourceWatch, err error) error {
	if interrupted(ctx) && w.read.Load() {
		return errStoppedAsMeant
	}
	return err
}
