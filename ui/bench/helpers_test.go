package bench

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// heldRun is a load engine the test drives: each run hands over its
// context, settings and progress callback, then waits for the test to end
// it (end) or for its context to end.
type heldRun struct {
	runs chan runOf
}

// runOf is one run of a heldRun.
type runOf struct {
	ctx      context.Context
	cfg      load.Config
	call     load.Call
	progress func(load.Snapshot)
	interval time.Duration
	end      chan load.Snapshot // the final snapshot the run returns
}

func newHeldRun() *heldRun { return &heldRun{runs: make(chan runOf, 4)} }

// run is the engine.
func (h *heldRun) run(ctx context.Context, cfg load.Config, call load.Call, progress func(load.Snapshot), interval time.Duration) (load.Snapshot, error) {
	r := runOf{ctx: ctx, cfg: cfg, call: call, progress: progress, interval: interval, end: make(chan load.Snapshot, 1)}
	h.runs <- r
	select {
	case s := <-r.end:
		return s, nil
	case <-ctx.Done():
		return load.Snapshot{Started: 3, Completed: 2, Elapsed: 1500 * time.Millisecond}, ctx.Err()
	}
}

// next is the run that started, once it did.
func (h *heldRun) next(t *testing.T) runOf {
	t.Helper()
	select {
	case r := <-h.runs:
		return r
	case <-time.After(guard.Hang):
		t.Fatal("no run started")
	}
	return runOf{}
}

// fixture is a bench of echo on a session to a fake peer, sized 100×30,
// its engine held by the test, and the runner of its commands.
type fixture struct {
	b      *Bench
	host   *screentest.Host
	held   *heldRun
	r      *screentest.Runner
	closed bool
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{host: screentest.NewHost(), held: newHeldRun()}
	_, f.host.Sess = screentest.Connect(t, capture.NewStore(capture.Config{}))
	f.b = New(f.host, ToolCall("echo", json.RawMessage(`{"message":"hi"}`)), f.held.run)
	f.b.SetSize(100, 30)
	f.r = screentest.NewRunner(t, f.update, func() string { return f.host.View(f.b, 100, 30) })
	return f
}

// update is the root's routing: every message to the screen, until it
// closes.
func (f *fixture) update(msg tea.Msg) tea.Cmd {
	if f.closed {
		return nil
	}
	cmd, closed := f.b.Update(msg)
	f.closed = f.closed || closed
	if e := errorOf(msg); e != "" {
		f.host.Note(e)
	}
	return cmd
}

// errorOf is the error text of a screen.ErrorMsg, or "".
func errorOf(msg tea.Msg) string {
	if e, ok := msg.(screen.ErrorMsg); ok {
		return e.Err.Error()
	}
	return ""
}
