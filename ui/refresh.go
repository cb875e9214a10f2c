package ui

import (
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/ui/explore"
)

// refreshInterval is the shortest time between two refreshes: the UI
// redraws for new frames at most about 60 times a second.
const refreshInterval = 16 * time.Millisecond

// refreshMsg says the store changed; at is when the refresh was let through.
type refreshMsg struct{ at time.Time }

// waitRefresh waits for the store's signal, then until refreshInterval has
// passed since the last refresh, and reports one refresh for every change
// in between. It is re-armed after each refresh, so at most one is pending.
func (m *Model) waitRefresh() tea.Cmd {
	sig, ctx, last, drawn := m.signal, m.ctx, m.lastRefresh, media.Changed()
	return func() tea.Msg {
		select {
		case <-sig:
		case <-drawn:
		case <-ctx.Done():
			return nil
		}
		if wait := refreshInterval - time.Since(last); wait > 0 {
			t := time.NewTimer(wait)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return nil
			}
		}
		return refreshMsg{at: time.Now()}
	}
}

// Bounds of one slice of a refresh's pass (index.readSlice): a key waits
// at most one slice before its Update runs, however many frames a flood
// left to read. While a pass goes on the panes are brought up to date
// every slicesShown slices (about a refreshInterval of reading), and the
// screen is held in between.
const (
	sliceFrames = 256
	sliceBytes  = 1 << 20
	slicesShown = 32
)

// passMsg reads the next slice of pass number pass.
type passMsg struct{ pass uint64 }

// passes numbers the passes of every Model, so that a slice asked for by a
// Model a replay replaced is never read by the next one.
var passes atomic.Uint64

// refresh starts a pass over the new frames (a refreshMsg), or reads the
// next slice of the pass under way (a passMsg), and brings the panes up
// to date when the pass is read whole or slicesShown slices were read
// since they last were; otherwise it holds the screen as drawn.
func (m *Model) refresh(msg tea.Msg) tea.Cmd {
	at, own := time.Now(), true
	switch msg := msg.(type) {
	case refreshMsg:
		at, m.lastRefresh = msg.at, msg.at
		m.idx.startPass(m.cfg.Store)
		own = !m.passing // else the pass under way reads on, then waits
		if own {
			m.passing, m.pass, m.passHeld = true, passes.Add(1), 0
		}
	case passMsg:
		if msg.pass != m.pass || !m.passing {
			m.hold = true // a slice of a pass that is over: nothing to read or draw
			return nil
		}
	}
	var next tea.Cmd
	switch done := m.idx.readSlice(m.cfg.Store, sliceFrames, sliceBytes); {
	case done:
		m.passing = false
		next = m.waitRefresh()
		if m.idx.lag && m.idx.behind(m.cfg.Store) {
			next = refreshNow // a replay reads on without waiting for a change
		}
	case own:
		pass := m.pass
		next = func() tea.Msg { return passMsg{pass: pass} }
		fallthrough
	default:
		if m.passHeld++; m.passHeld < slicesShown {
			m.hold = true
			return next
		}
	}
	m.passHeld = 0
	if m.cfg.Dial != nil {
		m.idx.progress.tick(at) // live: elapsed times run between frames (a replay keeps its frames' clock)
	}
	if v := m.idx.filter; v != nil {
		v.trim(m.cfg.Store.Stats().FirstSeq)
	}
	m.streams.update(m.cfg.Store.Streams(), m.cfg.Store.SSEStreams())
	m.traffic.sync()
	m.syncSelection()
	return tea.Batch(next, explore.ReloadChanged(m.overlay, &m.idx.changed))
}

// refreshNow asks for a refresh at once: the store holds frames the
// Model has not read (a replay's store filled before the Model, or
// faster than one refresh reads).
func refreshNow() tea.Msg { return refreshMsg{at: time.Now()} }
