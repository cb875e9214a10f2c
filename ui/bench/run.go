package bench

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/load"
)

// Runner runs a load test: load.Run, or a test's double of it.
type Runner func(ctx context.Context, cfg load.Config, call load.Call, progress func(load.Snapshot), interval time.Duration) (load.Snapshot, error)

// Interval is how often a run reports a snapshot: the screen redraws at
// most ten times a second, whatever the load.
const Interval = 100 * time.Millisecond

// snapshotMsg is a snapshot of the run gen, taken while it runs.
type snapshotMsg struct {
	gen  int
	snap load.Snapshot
}

// doneMsg is the final snapshot of the run gen, and why it ended early
// when it did.
type doneMsg struct {
	gen  int
	snap load.Snapshot
	err  error
}

// feed hands the run's snapshots to the UI: the engine never waits for
// the UI (a snapshot the UI has not read yet is replaced by the newer
// one), and the UI reads them one message at a time.
type feed struct {
	latest chan load.Snapshot // holds at most the newest snapshot unread
}

// newFeed returns an empty feed.
func newFeed() *feed { return &feed{latest: make(chan load.Snapshot, 1)} }

// put keeps s as the newest snapshot, dropping an older one not read yet.
// Only the engine's progress callback calls it (one writer); the errors
// are copied, the most frequent kinds only (capKinds), so that the engine
// may go on counting in its own map.
func (f *feed) put(s load.Snapshot) {
	s.Errors = capKinds(s.Errors)
	for {
		select {
		case f.latest <- s:
			return
		default:
		}
		select {
		case <-f.latest:
		default:
		}
	}
}

// next waits for the newest snapshot of the run gen, or for the run's
// context to end (then it yields nothing: the final snapshot comes with
// doneMsg).
func (f *feed) next(ctx context.Context, gen int) tea.Cmd {
	return func() tea.Msg {
		select {
		case s := <-f.latest:
			return snapshotMsg{gen: gen, snap: s}
		case <-ctx.Done():
			return nil
		}
	}
}

// errSessionEnded is why a run ended when the session it loaded did (a
// reconnect closed it, or the server went away).
var errSessionEnded = errors.New("the session ended")

// tiedTo is the context of a run that loads s: it ends with parent, and
// with s, the cause then errSessionEnded, so that no run goes on calling
// a session that answers every call with its end.
func tiedTo(parent context.Context, s *client.Session) (context.Context, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	go func() {
		select {
		case <-s.Done():
			cancel(errSessionEnded)
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// start runs the load test of the run gen in the background: the
// command yields doneMsg when the run ends; snapshots come through fd.
func start(ctx context.Context, run Runner, cfg load.Config, call load.Call, fd *feed, gen int) tea.Cmd {
	return func() tea.Msg {
		snap, err := run(ctx, cfg, call, fd.put, Interval)
		return doneMsg{gen: gen, snap: snap, err: err}
	}
}
