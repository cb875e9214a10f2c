// Package keyhelp describes the keys of a screen or of a widget for the
// hint bar and the help screen: the keys that apply now ranked by use,
// those the hint bar must never cut, every key in columns, and whether
// typed text goes to a text field (where ? is a character, not help).
// The UI and the prompts share it, so that a form inside a screen can
// say which of its keys matter.
package keyhelp

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// Map is a help.KeyMap that also ranks and marks its keys.
type Map struct {
	// Short are the keys that apply now, the most used first: the hint
	// bar shows as many as fit, in this order.
	Short []key.Binding
	// Essential are the keys of Short the hint bar never cuts, whatever
	// the width: the key that closes or steps back, and any key the
	// screen cannot be used without (how to pick an option).
	Essential []key.Binding
	// Full is every key, in columns, for the help screen; nil means
	// Short as one column.
	Full [][]key.Binding
	// Typing says a text field has the keys: ? types a ?, and only F1
	// opens the help.
	Typing bool
}

var _ help.KeyMap = Map{}

// ShortHelp implements help.KeyMap: the keys that apply now, ranked.
func (m Map) ShortHelp() []key.Binding { return m.Short }

// FullHelp implements help.KeyMap: every key, in columns.
func (m Map) FullHelp() [][]key.Binding {
	if m.Full == nil {
		return [][]key.Binding{m.Short}
	}
	return m.Full
}

// IsEssential reports whether b is one of the essential keys, matched by
// the key the help shows for it.
func (m Map) IsEssential(b key.Binding) bool {
	for _, e := range m.Essential {
		if e.Help().Key == b.Help().Key {
			return true
		}
	}
	return false
}

// Of returns km as a Map: a Map as it is; any other help.KeyMap with its
// short and full help, nothing essential and no text field.
func Of(km help.KeyMap) Map {
	if km == nil {
		return Map{}
	}
	if m, ok := km.(Map); ok {
		return m
	}
	return Map{Short: km.ShortHelp(), Full: km.FullHelp()}
}

// Relabel returns b described as desc.
func Relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
