package ui

import (
	"runtime"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/capture"
)

// yieldEvery is how many frames a transport captures for the TUI between
// two yields of its processor (yieldingTap).
const yieldEvery = 256

// yieldingTap hands every frame and note on to the TUI's store, and has
// the goroutine that captures yield its processor every yieldEvery frames.
// A transport reading a flood never blocks (its bytes are always there),
// so without it the goroutines queued behind it, the program's event loop
// that answers a key among them, would wait for the runtime to preempt it,
// about 10 ms; with it they wait for yieldEvery frames at most. The
// transport never waits for the UI: it only lets it run.
type yieldingTap struct {
	capture.Tap
	frames atomic.Uint64
	yield  func() // runtime.Gosched; tests count the yields
}

// newYieldingTap wraps t.
func newYieldingTap(t capture.Tap) *yieldingTap {
	return &yieldingTap{Tap: t, yield: runtime.Gosched}
}

// Append hands f on, then yields every yieldEvery frames.
func (t *yieldingTap) Append(f *capture.Frame) uint64 {
	seq := t.Tap.Append(f)
	if t.frames.Add(1)%yieldEvery == 0 {
		t.yield()
	}
	return seq
}
