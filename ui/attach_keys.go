package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
)

// pauseHelp explains the pause filter's words on the help screen.
const pauseHelp = "pause filter: method=GLOB tool=GLOB dir=host|server, several separated by ; " +
	"(an empty filter pauses nothing) · faults file: a path (empty clears the faults) · " +
	"the traffic filter's word proxy shows the proxy's marks; a method keeps the marks of its calls"

// AttachKeys are the keys that steer a proxied session; none is a key
// of the panes.
type AttachKeys struct {
	Pause  key.Binding // set or clear the pause filters
	Held   key.Binding // the paused messages: forward, edit or drop
	Faults key.Binding // load a faults file, or clear the faults
}

// DefaultAttachKeys returns the attach's bindings.
func DefaultAttachKeys() AttachKeys {
	return AttachKeys{
		Pause:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause filter (set / clear)")),
		Held:   key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "paused messages: forward, edit, drop")),
		Faults: key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "faults file (load / clear)")),
	}
}

// group is the attach's column of the help screen.
func (a AttachKeys) group() []key.Binding { return []key.Binding{a.Pause, a.Held, a.Faults} }

// refusedOnAttach are the keys that need a connection of mcpscope's own:
// an attach refuses them, saying why. The composer is not among them: it
// injects into the session.
func (k KeyMap) refusedOnAttach() []key.Binding {
	return slices.DeleteFunc(k.liveOnly(), func(b key.Binding) bool {
		return slices.Equal(b.Keys(), k.Compose.Keys())
	})
}

// attachHints ranks the keys of an attach for the hint bar.
func (k KeyMap) attachHints(a AttachKeys) keyhelp.Map {
	return keyhelp.Map{
		Short: []key.Binding{keyhelp.Relabel(a.Pause, "pause"), keyhelp.Relabel(a.Held, "paused"),
			keyhelp.Relabel(k.Compose, "inject"), keyhelp.Relabel(a.Faults, "faults"),
			k.NextPane, k.Detail, k.Filter, k.Hex, k.Follow, k.Quit},
		Essential: []key.Binding{k.Quit},
	}
}

// attachHelp is an attach's help screen: its steering keys, then the
// keys of the panes.
func (k KeyMap) attachHelp(a AttachKeys, s paneSet) [][]key.Binding {
	panes := []key.Binding{k.NextPane, k.PrevPane}
	for p := range paneCount {
		if s[p] {
			panes = append(panes, k.Panes[p])
		}
	}
	return [][]key.Binding{
		append(a.group(), keyhelp.Relabel(k.Compose, "inject a request")),
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		panes,
		{k.Detail, k.Hex, k.Back, k.Link, k.Follow, k.Filter},
		{k.PrevItem, k.NextItem, k.Copy, k.Save, k.Wire},
		{k.Help, k.helpInText(), k.Quit},
	}
}
