// Package bench is the load test of one call from the TUI (key b): a
// tool of the explorer or a request of the traffic, repeated at a
// concurrency for a duration through the session, with throughput,
// errors by kind, latency percentiles and a live chart of the latency of
// each tick.
package bench

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client/load"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Defaults of a run, changed with the screen's keys before it starts.
const (
	DefaultConcurrency = 8
	DefaultDuration    = 10 * time.Second
	maxConcurrency     = 1024
)

// durations are the steps of the duration keys.
var durations = []time.Duration{
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 20 * time.Second,
	30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute,
}

// state is where a bench is.
type state int

const (
	stateReady   state = iota // the settings, before a run
	stateRunning              // a run in progress
	stateDone                 // a run ended: its figures stay
)

// Bench is the screen that load-tests one call: it shows the call, the
// settings, and while it runs and after, the figures and the chart.
type Bench struct {
	d     screen.Host
	call  Call
	title string // the call, safe to print
	run   Runner
	keys  keyMap

	cfg    load.Config
	state  state
	gen    int
	cancel context.CancelCauseFunc // ends the run in progress
	runCtx context.Context         // the run in progress's context
	feed   *feed                   // its snapshots
	snap   load.Snapshot           // the newest figures
	hist   history
	err    error // why the last run ended early, or could not start
	// stopped says the user stopped the last run before its end.
	stopped bool

	w, h int
}

var _ screen.Screen = (*Bench)(nil)

// New returns a bench of call on d's session, ready to run with the
// default settings; run is the engine (nil: load.Run).
func New(d screen.Host, call Call, run Runner) *Bench {
	if run == nil {
		run = load.Run
	}
	return &Bench{d: d, call: call, title: call.summary(), run: run, keys: defaultKeys(),
		cfg: load.Config{Concurrency: DefaultConcurrency, Duration: DefaultDuration}}
}

// Title names the screen and the call it benches.
func (b *Bench) Title() string { return "Bench · " + b.title }

// SetSize gives the screen its body size.
func (b *Bench) SetSize(w, h int) { b.w, b.h = w, h }

// Update handles a key, and the run's snapshots and end.
func (b *Bench) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case snapshotMsg:
		if msg.gen != b.gen || b.state != stateRunning {
			return nil, false
		}
		b.take(msg.snap)
		return b.feed.next(b.runCtx, b.gen), false // the next one, once this one is shown
	case doneMsg:
		if msg.gen != b.gen {
			return nil, false
		}
		b.finish(msg)
		return nil, false
	case tea.KeyPressMsg:
		return b.handleKey(msg)
	}
	return nil, false
}

// take shows a snapshot of the run and plots its window.
func (b *Bench) take(s load.Snapshot) {
	b.snap = s
	b.hist.add(s.Window)
}

// start begins a run with the settings shown.
func (b *Bench) start() tea.Cmd {
	s, err := b.d.Session()
	if err != nil {
		b.err = errNeedsConnection(err)
		return nil
	}
	b.gen++
	ctx, cancel := tiedTo(b.d.Context(), s)
	b.cancel, b.runCtx, b.feed = cancel, ctx, newFeed()
	b.state, b.err, b.stopped = stateRunning, nil, false
	b.snap, b.hist = load.Snapshot{}, history{}
	return tea.Batch(
		start(ctx, b.run, b.cfg, b.call.loadCall(s, b.d.OutputSchema(b.call.Tool)), b.feed, b.gen),
		b.feed.next(ctx, b.gen),
	)
}

// finish ends the run with its final figures.
func (b *Bench) finish(msg doneMsg) {
	ended := b.runCtx != nil && errors.Is(context.Cause(b.runCtx), errSessionEnded)
	if b.cancel != nil {
		b.cancel(nil)
	}
	b.cancel, b.runCtx, b.feed, b.state = nil, nil, nil, stateDone
	if msg.snap.Completed > 0 || msg.snap.Started > 0 || len(msg.snap.Errors) > 0 {
		msg.snap.Errors = capKinds(msg.snap.Errors)
		b.snap = msg.snap
	}
	switch {
	case b.stopped:
	case ended:
		b.err = errSessionEnded
	case msg.err != nil:
		b.err = msg.err
	}
}

// stop cancels the run in progress; its final figures arrive as doneMsg.
func (b *Bench) stop() {
	if b.cancel != nil {
		b.stopped = true
		b.cancel(nil)
	}
}

// Close stops the run in progress, if any: the screen goes.
func (b *Bench) Close() { b.stop() }
