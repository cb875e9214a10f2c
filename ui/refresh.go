package ui

import (
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

// refresh reads the new frames into the index and the panes.
func (m *Model) refresh(at time.Time) tea.Cmd {
	m.lastRefresh = at
	m.idx.catchUp(m.cfg.Store)
	if m.cfg.Dial != nil {
		m.idx.progress.tick(at) // live: elapsed times run between frames (a replay keeps its frames' clock)
	}
	if v := m.idx.filter; v != nil {
		v.trim(m.cfg.Store.Stats().FirstSeq)
	}
	m.streams.update(m.cfg.Store.Streams(), m.cfg.Store.SSEStreams())
	m.traffic.sync()
	m.syncSelection()
	next := m.waitRefresh()
	if m.idx.lag && m.idx.behind(m.cfg.Store) {
		next = refreshNow // a replay reads on without waiting for a change
	}
	return tea.Batch(next, explore.ReloadChanged(m.overlay, &m.idx.changed))
}

// refreshNow asks for a refresh at once: the store holds frames the
// Model has not read (a replay's store filled before the Model, or
// faster than one refresh reads).
func refreshNow() tea.Msg { return refreshMsg{at: time.Now()} }
