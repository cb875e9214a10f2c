package client

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// TestSendDeadlineAsWithDeadline checks the lazy send context against
// what context.WithDeadline does: its deadline ends it whether or not
// Done was asked for first, the caller's cancellation ends it, release
// ends it, and context.AfterFunc runs on it.
func TestSendDeadlineAsWithDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Done asked for first: it closes at the deadline.
		sd := withSendDeadline(context.Background(), time.Now().Add(time.Second))
		var ctx context.Context = sd
		release := sd.release
		ran := make(chan struct{})
		stop := context.AfterFunc(ctx, func() { close(ran) })
		defer stop()
		if d, ok := ctx.Deadline(); !ok || !d.Equal(time.Now().Add(time.Second)) {
			t.Fatalf("Deadline = %v, %v", d, ok)
		}
		if ctx.Err() != nil {
			t.Fatalf("Err before the deadline = %v", ctx.Err())
		}
		<-ctx.Done()
		<-ran
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			t.Fatalf("Err, Cause after the deadline = %v, %v", ctx.Err(), context.Cause(ctx))
		}
		release()

		// Done never asked for: Err and Cause tell the deadline all the same.
		sd = withSendDeadline(context.Background(), time.Now().Add(time.Second))
		ctx, release = sd, sd.release
		time.Sleep(2 * time.Second)
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			t.Fatalf("Err, Cause past the deadline = %v, %v", ctx.Err(), context.Cause(ctx))
		}
		select {
		case <-ctx.Done():
		default:
			t.Fatal("Done is open past the deadline")
		}
		release()

		// The caller's cancellation ends it, with the caller's cause.
		parent, cancel := context.WithCancelCause(context.Background())
		why := errors.New("stopped")
		sd = withSendDeadline(parent, time.Now().Add(time.Minute))
		ctx, release = sd, sd.release
		cancel(why)
		if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(context.Cause(ctx), why) {
			t.Fatalf("Err, Cause after the caller cancelled = %v, %v", ctx.Err(), context.Cause(ctx))
		}
		<-ctx.Done()
		release()

		// An earlier deadline of the caller's wins.
		parent, cancelParent := context.WithDeadline(context.Background(), time.Now().Add(time.Second))
		defer cancelParent()
		sd = withSendDeadline(parent, time.Now().Add(time.Minute))
		ctx, release = sd, sd.release
		if d, _ := ctx.Deadline(); !d.Equal(time.Now().Add(time.Second)) {
			t.Fatalf("Deadline = %v, want the caller's", d)
		}
		// Released: it ends, as a CancelFunc ends a context.
		release()
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Fatalf("Err after release = %v", ctx.Err())
		}
		<-ctx.Done()
	})
}
