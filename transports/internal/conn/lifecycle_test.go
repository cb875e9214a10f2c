package conn

import (
	"errors"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/client"
)

func newTestLifecycle() *Lifecycle { return NewLifecycle("test", "the peer is gone") }

func TestLifecycleStartOnce(t *testing.T) {
	l := newTestLifecycle()
	if err := l.Writable(); err == nil || err.Error() != "cannot send: the test transport is not started" {
		t.Fatalf("Writable before Start = %v", err)
	}
	if err := l.Start(nil); err != nil {
		t.Fatalf("Start = %v", err)
	}
	if err := l.Start(nil); err == nil || err.Error() != "the test transport was started already" {
		t.Fatalf("second Start = %v", err)
	}
	if err := l.Writable(); err != nil {
		t.Fatalf("Writable after Start = %v", err)
	}
}

func TestLifecycleStartFailedBeginStaysUnstarted(t *testing.T) {
	l := newTestLifecycle()
	boom := errors.New("boom")
	if err := l.Start(func() error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("Start = %v, want boom", err)
	}
	if err := l.Writable(); err == nil || err.Error() != "cannot send: the test transport is not started" {
		t.Fatalf("Writable after a failed Start = %v", err)
	}
	ran := false
	if err := l.Start(func() error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("Start after a failed one = %v (begin ran: %v)", err, ran)
	}
}

func TestLifecycleClosedBeforeStart(t *testing.T) {
	l := newTestLifecycle()
	if l.Close() {
		t.Fatal("Close reported a start that did not happen")
	}
	if err := l.Start(func() error { t.Error("begin ran after Close"); return nil }); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Start after Close = %v", err)
	}
	if err := l.Writable(); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Writable after Close = %v", err)
	}
}

func TestLifecycleEndWithReason(t *testing.T) {
	l := newTestLifecycle()
	_ = l.Start(nil)
	first, second := errors.New("first"), errors.New("second")
	l.Fail(first)
	l.Fail(second)
	var seen error
	l.End(second, func(reason error) {
		seen = reason
		select {
		case <-l.Done():
			t.Error("Done closed before last ran")
		default:
		}
	})
	l.End(nil, func(error) { t.Error("last ran on a second End") })
	<-l.Done()
	if seen != first || l.Err() != first {
		t.Fatalf("reason = %v, Err = %v; want the first", seen, l.Err())
	}
	var ce *client.ConnectionError
	if err := l.Writable(); !errors.As(err, &ce) || !errors.Is(err, first) {
		t.Fatalf("Writable after the end = %v", err)
	}
}

func TestLifecycleEndRecordsWhenNoneKnown(t *testing.T) {
	l := newTestLifecycle()
	exit := errors.New("exit status 1")
	l.End(exit, nil)
	if l.Err() != exit {
		t.Fatalf("Err = %v", l.Err())
	}
}

func TestLifecycleGone(t *testing.T) {
	l := newTestLifecycle()
	var ce *client.ConnectionError
	if err := l.Gone(); !errors.As(err, &ce) || err.Error() != (&client.ConnectionError{Err: errors.New("the peer is gone")}).Error() {
		t.Fatalf("Gone without a reason = %v", err)
	}
	l.Close()
	l.Fail(errors.New("ignored while closing"))
	l.End(nil, nil)
	if l.Err() != nil {
		t.Fatalf("Err after a clean end = %v", l.Err())
	}
	if err := l.Gone(); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Gone after a clean end = %v", err)
	}
}

func TestLifecycleCloseDuringBeginSeesTheStart(t *testing.T) {
	l := newTestLifecycle()
	started := make(chan bool)
	err := l.Start(func() error {
		// Close runs while begin holds the lock: it must wait and then
		// find the connection started, never finish it as unstarted.
		go func() { started <- l.Close() }()
		return nil
	})
	if err != nil {
		t.Fatalf("Start = %v", err)
	}
	if !<-started {
		t.Fatal("Close did not see the start it overlapped")
	}
}

func TestLifecycleConcurrent(t *testing.T) {
	l := newTestLifecycle()
	_ = l.Start(nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			_ = l.Writable()
			_ = l.Gone()
			_ = l.Closing()
			l.Fail(errors.New("fail"))
			if i%2 == 0 {
				l.Close()
			}
			l.End(errors.New("end"), nil)
			_ = l.Err()
		})
	}
	wg.Wait()
	<-l.Done()
}
