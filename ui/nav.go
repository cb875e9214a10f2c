package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// nav is a navigation key read the same way by every pane.
type nav struct {
	delta     int  // rows to move (negative: up)
	home, end bool // jump to the first or last row
}

// navOf reads a navigation key; page is the rows of one page. ok is false
// for keys that do not navigate.
func navOf(msg tea.KeyPressMsg, k KeyMap, page int) (n nav, ok bool) {
	page = max(page, 1)
	switch {
	case key.Matches(msg, k.Up):
		return nav{delta: -1}, true
	case key.Matches(msg, k.Down):
		return nav{delta: 1}, true
	case key.Matches(msg, k.PageUp):
		return nav{delta: -page}, true
	case key.Matches(msg, k.PageDown):
		return nav{delta: page}, true
	case key.Matches(msg, k.Home):
		return nav{home: true}, true
	case key.Matches(msg, k.End):
		return nav{end: true}, true
	}
	return nav{}, false
}

// apply moves a position in [0, n) by the navigation.
func (v nav) apply(pos, n int) int {
	switch {
	case n <= 0:
		return 0
	case v.home:
		return 0
	case v.end:
		return n - 1
	}
	return min(max(pos+v.delta, 0), n-1)
}

// applyFrom moves a selection in a list of rows. pos is where the
// selected row is, or, when present is false, where it would be (the row
// left the list: the store dropped it, or a filter does not match it).
// Moving down from a missing row goes to the rows after it, moving up to
// the rows before it; ok is false when there is none that way, and the
// selection should stay where it is.
func (v nav) applyFrom(pos, n int, present bool) (i int, ok bool) {
	switch {
	case n <= 0:
		return 0, false
	case present || v.home || v.end:
		return v.apply(pos, n), true
	case v.delta > 0:
		return min(pos+v.delta-1, n-1), true
	case pos+v.delta >= 0:
		return pos + v.delta, true
	}
	return 0, false
}

// up reports whether the navigation goes towards the start.
func (v nav) up() bool { return v.home || v.delta < 0 }
