package webtransport

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// waitGuard bounds the test's own wait on awaitIdle; it fires only when the
// idle limit is not kept.
const waitGuard = guard.Hang

// awaitWithin runs awaitOrGiveUp and fails the test when it has not
// returned within waitGuard.
func awaitWithin(t *testing.T, s *streamTable, ctx context.Context, id uint32, idle time.Duration) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.awaitOrGiveUp(ctx, id, idle) }()
	select {
	case err := <-done:
		return err
	case <-time.After(waitGuard):
		t.Fatalf("awaitIdle(%d, %s) was still waiting after %s", id, idle, waitGuard)
		return nil
	}
}

// A stream the result refers to that never opens ends the wait after the
// idle limit; Close's drain no longer waits for it either.
func TestAwaitIdleStreamNeverOpened(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newStreamTable()
		s.sent(2)
		s.answered(2, []StreamRef{{Type: ContentStreamRef, StreamTag: 1}})
		err := awaitWithin(t, s, context.Background(), 2, 100*time.Millisecond)
		var wait *StreamWaitError
		if !errors.As(err, &wait) || wait.Opened || wait.Idle != 100*time.Millisecond || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("await = %v, want a StreamWaitError for a stream never opened", err)
		}
		if want := "execution stream 2/1, which the result refers to, was not opened within 100ms"; err.Error() != want {
			t.Fatalf("error %q, want %q", err, want)
		}
		drained := make(chan struct{})
		go func() { s.drain(context.Background()); close(drained) }()
		select {
		case <-drained:
		case <-time.After(waitGuard):
			t.Fatalf("drain still waits for a stream the client gave up within %s", waitGuard)
		}
	})
}

// Payload bytes are signs of life: a stream that keeps bringing bytes more
// often than the idle limit is waited for past it; once it stalls, the
// wait ends and its reading is stopped.
func TestAwaitIdleStreamBytesKeepItAlive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const idle = time.Second
		s := newStreamTable()
		s.sent(3)
		s.answered(3, []StreamRef{{Type: ContentStreamRef, StreamTag: 1}})
		if r := s.open(3, 1); r != "" {
			t.Fatal(r)
		}
		stopped := make(chan struct{})
		s.stoppable(3, 1, func() { close(stopped) })
		go func() {
			for range 15 { // 15 × idle/10: past the idle limit in all
				time.Sleep(idle / 10)
				s.progressed(3, 1, 100)
			}
		}()
		err := awaitWithin(t, s, context.Background(), 3, idle)
		var wait *StreamWaitError
		if !errors.As(err, &wait) || !wait.Opened || wait.Bytes != 1500 {
			t.Fatalf("await = %v, want a stall after all 1500 bytes", err)
		}
		if want := "execution stream 3/1 stalled: no bytes for 1s after 1500"; err.Error() != want {
			t.Fatalf("error %q, want %q", err, want)
		}
		select {
		case <-stopped:
		case <-time.After(waitGuard):
			t.Fatalf("the stalled stream's reading was not stopped within %s", waitGuard)
		}
	})
}

// A stream that arrives after its request was given up is stopped at once.
func TestAwaitIdleLateStreamStopped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newStreamTable()
		s.sent(4)
		s.answered(4, []StreamRef{{Type: ContentStreamRef, StreamTag: 1}, {Type: ContentStreamRef, StreamTag: 2}})
		ctx, cancel := context.WithCancelCause(context.Background())
		why := errors.New("max time")
		cancel(why)
		err := awaitWithin(t, s, ctx, 4, 0)
		var wait *StreamWaitError
		if !errors.As(err, &wait) || wait.Idle != 0 || !errors.Is(err, why) || wait.StreamTag != 1 {
			t.Fatalf("await = %v, want the context's cause", err)
		}
		if r := s.open(4, 2); r != "" {
			t.Fatal(r)
		}
		stopped := false
		s.stoppable(4, 2, func() { stopped = true })
		if !stopped {
			t.Fatal("a stream of a given-up request was read")
		}
	})
}
