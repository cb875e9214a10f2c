package bench

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// A run ends when the session it loads does (a reconnect closes it): the
// engine's context ends, its cause the session's end, and the screen says
// so instead of counting the session's refusals until the duration ends.
func TestBenchEndsWithItsSession(t *testing.T) {
	f := newFixture(t)
	f.r.Press("enter")
	run := f.held.next(t)
	if err := f.host.Sess.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-run.ctx.Done():
	case <-time.After(guard.Hang):
		t.Fatal("the run goes on loading a closed session")
	}
	if cause := context.Cause(run.ctx); !errors.Is(cause, errSessionEnded) {
		t.Errorf("the run ended because %v, want the session's end", cause)
	}
	f.r.Until("the screen says the session ended", func() bool {
		return strings.Contains(f.r.ScreenText(), "the session ended after 1.5s · enter runs again on the current connection")
	})
	if f.b.state != stateDone || f.closed {
		t.Errorf("after the session's end: state %v, closed %v", f.b.state, f.closed)
	}
}

// A run stopped by its own key is no session's end, even when the session
// closes later.
func TestBenchStoppedIsNoSessionEnd(t *testing.T) {
	f := newFixture(t)
	f.r.Press("enter")
	run := f.held.next(t)
	f.r.Press("ctrl+x")
	<-run.ctx.Done()
	_ = f.host.Sess.Close()
	f.r.Until("the stopped run shows", func() bool { return strings.Contains(f.r.ScreenText(), "stopped after 1.5s") })
	if errors.Is(context.Cause(run.ctx), errSessionEnded) {
		t.Error("a stopped run's cause is the session's end")
	}
}
