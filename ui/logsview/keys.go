package logsview

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
)

// keyMap holds the view's own keys; scrolling uses the root's.
type keyMap struct {
	More, Less, Logger, Open key.Binding
	SetLevel, FilterDone     key.Binding
	Close                    key.Binding
}

// defaultKeys returns the view's keys.
func defaultKeys() keyMap {
	return keyMap{
		More:       key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/-", "level filter")),
		Less:       key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "lower level")),
		Logger:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter by logger")),
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "whole data")),
		SetLevel:   key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "ask the server for this level")),
		FilterDone: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Close:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back / close")),
	}
}

// Help lists the view's keys.
func (v *View) Help() help.KeyMap {
	k := v.keys
	n := v.h.Nav()
	full := [][]key.Binding{{k.More, k.Less, k.Logger, k.Open, k.SetLevel, k.Close}, {n.Up, n.Down, n.PageUp, n.PageDown, n.Home, n.End}}
	switch {
	case v.typing:
		return keyhelp.Map{Short: []key.Binding{k.FilterDone, k.Close}, Essential: []key.Binding{k.FilterDone, k.Close}, Full: full, Typing: true}
	case v.detail:
		return keyhelp.Map{Short: []key.Binding{n.Up, n.Down, k.Close}, Essential: []key.Binding{k.Close}, Full: full}
	}
	return keyhelp.Map{Short: []key.Binding{k.More, k.Logger, k.Open, k.SetLevel, k.Close}, Essential: []key.Binding{k.Close}, Full: full}
}
