// Package nav reads the navigation keys (up, down, page, home, end) the
// same way for every pane and screen of the UI, and moves positions in
// lists by them.
package nav

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Keys are the navigation bindings: one row, one page, the first and the
// last row.
type Keys struct {
	Up, Down, PageUp, PageDown key.Binding
	Home, End                  key.Binding
}

// DefaultKeys returns the default navigation bindings.
func DefaultKeys() Keys {
	return Keys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Home:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "first")),
		End:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "last")),
	}
}

// Move is a navigation key read the same way by every pane.
type Move struct {
	Delta     int  // rows to move (negative: up)
	Home, End bool // jump to the first or last row
}

// Of reads a navigation key; page is the rows of one page. ok is false
// for keys that do not navigate.
func Of(msg tea.KeyPressMsg, k Keys, page int) (n Move, ok bool) {
	page = max(page, 1)
	switch {
	case key.Matches(msg, k.Up):
		return Move{Delta: -1}, true
	case key.Matches(msg, k.Down):
		return Move{Delta: 1}, true
	case key.Matches(msg, k.PageUp):
		return Move{Delta: -page}, true
	case key.Matches(msg, k.PageDown):
		return Move{Delta: page}, true
	case key.Matches(msg, k.Home):
		return Move{Home: true}, true
	case key.Matches(msg, k.End):
		return Move{End: true}, true
	}
	return Move{}, false
}

// Apply moves a position in [0, n) by the navigation.
func (v Move) Apply(pos, n int) int {
	switch {
	case n <= 0:
		return 0
	case v.Home:
		return 0
	case v.End:
		return n - 1
	}
	return min(max(pos+v.Delta, 0), n-1)
}

// ApplyFrom moves a selection in a list of rows. pos is where the
// selected row is, or, when present is false, where it would be (the row
// left the list: the store dropped it, or a filter does not match it).
// Moving down from a missing row goes to the rows after it, moving up to
// the rows before it; ok is false when there is none that way, and the
// selection should stay where it is.
func (v Move) ApplyFrom(pos, n int, present bool) (i int, ok bool) {
	switch {
	case n <= 0:
		return 0, false
	case present || v.Home || v.End:
		return v.Apply(pos, n), true
	case v.Delta > 0:
		return min(pos+v.Delta-1, n-1), true
	case pos+v.Delta >= 0:
		return pos + v.Delta, true
	}
	return 0, false
}

// Up reports whether the navigation goes towards the start.
func (v Move) Up() bool { return v.Home || v.Delta < 0 }
