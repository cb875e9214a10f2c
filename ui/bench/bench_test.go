package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
)

// enter starts a run with the default settings; the engine gets them, a
// snapshot it reports shows on the screen, and its end shows the final
// figures.
func TestBenchRunShowsSnapshots(t *testing.T) {
	f := newFixture(t)
	if !strings.Contains(f.r.ScreenText(), "ready · enter runs") {
		t.Fatalf("the bench does not open ready:\n%s", f.r.ScreenText())
	}
	f.r.Press("enter")
	run := f.held.next(t)
	if run.cfg.Concurrency != DefaultConcurrency || run.cfg.Duration != DefaultDuration || run.interval != Interval {
		t.Errorf("the run's settings: %+v every %s", run.cfg, run.interval)
	}
	run.progress(load.Snapshot{Elapsed: time.Second, Started: 130, Completed: 120, Throughput: 120,
		P50: 2 * time.Millisecond, P90: 3 * time.Millisecond, P99: 9 * time.Millisecond, Max: 12 * time.Millisecond,
		Window: load.Window{Completed: 120, P50: 2 * time.Millisecond, P99: 9 * time.Millisecond}})
	f.r.Until("the snapshot shows", func() bool {
		s := f.r.ScreenText()
		return strings.Contains(s, "started 130 · completed 120") && strings.Contains(s, "p99 9.00ms")
	})
	run.progress(load.Snapshot{Elapsed: 2 * time.Second, Started: 260, Completed: 250, Throughput: 125,
		Window: load.Window{Completed: 130, P50: time.Millisecond, P99: 4 * time.Millisecond}})
	f.r.Until("the second snapshot shows", func() bool { return strings.Contains(f.r.ScreenText(), "completed 250") })
	if n := len(f.b.hist.points); n != 2 {
		t.Errorf("the chart has %d ticks, want 2", n)
	}
	run.end <- load.Snapshot{Elapsed: 10 * time.Second, Started: 1250, Completed: 1250, Throughput: 125}
	f.r.Until("the run ends", func() bool { return strings.Contains(f.r.ScreenText(), "done in 10.0s · enter runs again") })
	if f.b.state == stateRunning || f.closed {
		t.Errorf("after its end: state %v, closed %v", f.b.state, f.closed)
	}
}

// esc stops the run: the engine's context is cancelled and the screen
// closes.
func TestBenchEscCancelsTheRun(t *testing.T) {
	f := newFixture(t)
	f.r.Press("enter")
	run := f.held.next(t)
	f.r.Press("esc")
	if !f.closed {
		t.Fatal("esc did not close the bench")
	}
	select {
	case <-run.ctx.Done():
	default:
		t.Fatal("esc left the run's context alive")
	}
}

// ctrl+x stops the run and keeps its figures on the screen.
func TestBenchStopKeepsTheFigures(t *testing.T) {
	f := newFixture(t)
	f.r.Press("enter")
	run := f.held.next(t)
	f.r.Press("ctrl+x")
	<-run.ctx.Done()
	f.r.Until("the stopped run shows", func() bool {
		s := f.r.ScreenText()
		return strings.Contains(s, "stopped after 1.5s") && strings.Contains(s, "started 3 · completed 2")
	})
	if f.closed {
		t.Error("ctrl+x closed the bench")
	}
	f.r.Press("enter")
	if again := f.held.next(t); again.ctx.Err() != nil {
		t.Error("the second run started with a done context")
	}
}

// +/- halve and double the concurrency, >/< step the duration; while a
// run is in progress they are refused, saying why.
func TestBenchSettingsKeys(t *testing.T) {
	f := newFixture(t)
	f.r.Press("+", "+", "-", ">", ">", "<", "<", "<")
	if f.b.cfg.Concurrency != 16 || f.b.cfg.Duration != 5*time.Second {
		t.Errorf("settings %+v, want concurrency 16, duration 5s", f.b.cfg)
	}
	for range 20 {
		f.r.Press("-", "<")
	}
	if f.b.cfg.Concurrency != 1 || f.b.cfg.Duration != time.Second {
		t.Errorf("settings %+v, want the least: 1 and 1s", f.b.cfg)
	}
	f.r.Press("enter")
	f.held.next(t)
	cmd, _ := f.b.Update(keytest.Press("+"))
	if cmd == nil || !strings.Contains(errorOf(cmd()), "a run is in progress: ctrl+x stops it") {
		t.Error("+ during a run was not refused")
	}
	if f.b.cfg.Concurrency != 1 {
		t.Errorf("+ during a run changed the concurrency to %d", f.b.cfg.Concurrency)
	}
	cmd, _ = f.b.Update(keytest.Press("z"))
	if cmd == nil || !strings.Contains(errorOf(cmd()), "z is not a key of this screen") {
		t.Error("z was swallowed")
	}
}

// Without a session the run does not start and the screen says why.
func TestBenchNeedsAConnection(t *testing.T) {
	f := newFixture(t)
	f.host.Sess = nil
	f.r.Press("enter")
	if f.b.state == stateRunning || !strings.Contains(f.r.ScreenText(), "failed: bench needs a live connection") {
		t.Errorf("without a session:\n%s", f.r.ScreenText())
	}
}

// A snapshot of an earlier run, arriving late, changes nothing.
func TestBenchIgnoresAnEarlierRun(t *testing.T) {
	f := newFixture(t)
	f.r.Press("enter")
	f.held.next(t)
	f.b.Update(snapshotMsg{gen: f.b.gen - 1, snap: load.Snapshot{Completed: 99}})
	f.b.Update(doneMsg{gen: f.b.gen - 1})
	if f.b.snap.Completed != 0 || f.b.state != stateRunning {
		t.Errorf("a stale message changed the run: %+v, state %v", f.b.snap, f.b.state)
	}
}
