package ui

import (
	"os"
	"runtime/debug"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
)

// ResidentLimit is the memory a TUI showing store may hold: the store's
// MemoryBound and the index's steady share, the most the TUI keeps alive
// whatever it captures. LimitResident makes it the Go runtime's soft memory
// limit, so that under an endless flood what is resident levels off near
// it instead of near twice the live heap (Go's default GC target). What
// only comes and goes, large results waiting for a verdict and the
// compiles of large outputSchemas (indexMemoryBound's share past
// indexSteadyBound), is let in past the limit while it lasts, the
// collector working harder meanwhile, rather than raising the level every
// flood settles at.
func ResidentLimit(store *capture.Store) int64 {
	return store.Config().MemoryBound() + indexSteadyBound
}

// residentLimits is the soft memory limit the TUIs of this process set: the sum
// of their ResidentLimits, and the limit there was before the first.
var residentLimits struct {
	sync.Mutex
	total, before int64
	tuis          int
}

// LimitResident sets the runtime's soft memory limit (debug.SetMemoryLimit)
// to ResidentLimit(store) for as long as a TUI shows store, and returns
// the function that takes it back (the previous limit returns with the
// last TUI; several at once, as in tests, add up). A limit the user chose
// with GOMEMLIMIT is left as it is. Under the limit the collector runs
// more often as the store fills; it never takes more than about half the
// CPU for it (the runtime's own cap), so a live heap at the bound slows
// the TUI rather than stopping it.
func LimitResident(store *capture.Store) (restore func()) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return func() {}
	}
	limit := ResidentLimit(store)
	residentLimits.Lock()
	defer residentLimits.Unlock()
	residentLimits.total += limit
	residentLimits.tuis++
	if prev := debug.SetMemoryLimit(residentLimits.total); residentLimits.tuis == 1 {
		residentLimits.before = prev
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			residentLimits.Lock()
			defer residentLimits.Unlock()
			residentLimits.total -= limit
			residentLimits.tuis--
			if residentLimits.tuis == 0 {
				debug.SetMemoryLimit(residentLimits.before)
				return
			}
			debug.SetMemoryLimit(residentLimits.total)
		})
	}
}
