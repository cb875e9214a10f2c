package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// KeyMap holds every key binding of the UI. The help bar and the help
// screen are generated from it.
type KeyMap struct {
	nav.Keys                     // scrolling, shared with every screen
	NextPane, PrevPane           key.Binding
	Detail, Hex, Follow, Link    key.Binding
	PrevItem, NextItem           key.Binding // the hex pane's body items
	Filter, Back                 key.Binding
	Cancel, Copy, Reconnect      key.Binding
	ListTools, ReadFile, Analyze key.Binding
	Tone, Explore, Compose       key.Binding
	Roots, Wire, Server          key.Binding
	Quit, Help                   key.Binding
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		NextPane:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Keys:      nav.DefaultKeys(),
		Detail:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "detail")),
		Hex:       key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "hex dump")),
		Follow:    key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow")),
		Link:      key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "next frame of this call")),
		PrevItem:  key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous body item (hex)")),
		NextItem:  key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next body item (hex)")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back / clear filter")),
		Cancel:    screen.CancelKey("cancel request", "c"), // c: the old key, harmless where nothing is typed
		Copy:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		Reconnect: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reconnect")),
		ListTools: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tools/list")),
		ReadFile:  key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "read_file 1 MiB")),
		Analyze:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "analyze")),
		Tone:      key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "tone (audio)")),
		Explore:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "explore tools, resources, prompts")),
		Compose:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "send a raw request")),
		Roots:     key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "edit roots")),
		Wire:      key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "wire ⇄ screen")),
		Server:    key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "server info, instructions, capabilities")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
	}
}

// ShortHelp is the one-line help under the panes.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.NextPane, k.Detail, k.Hex, k.Follow, k.Filter, k.Explore, k.Compose, k.Cancel, k.Quit}
}

// FullHelp is the help screen, in columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.NextPane, k.PrevPane, k.Detail, k.Hex, k.Back, k.Link},
		{k.Follow, k.Filter, k.Copy, k.Cancel, k.Reconnect},
		{k.Explore, k.Compose, k.Server, k.Roots, k.Wire, k.ListTools, k.ReadFile, k.Analyze, k.Tone},
		{k.PrevItem, k.NextItem, k.Help, k.Quit},
	}
}
