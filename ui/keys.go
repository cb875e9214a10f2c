package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/ui/contentsave"
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
	Save                         key.Binding // the capture so far to a file
	SaveContent                  key.Binding // the selected frame's image, audio or blob to a file
	ListTools, ReadFile, Analyze key.Binding
	Tone, Explore, Compose       key.Binding
	Roots, Wire, Server          key.Binding
	Bench                        key.Binding // load-test the selected request (ui/bench)
	Tasks, Subscriptions         key.Binding // the views of views.go
	Logs, Findings               key.Binding
	Quit, Help, HelpAnywhere     key.Binding
	// Panes jump to a pane: 1 traffic … 6 stderr, in tab bar order.
	Panes [paneCount]key.Binding
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		NextPane:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:      key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Keys:          nav.DefaultKeys(),
		Detail:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "detail")),
		Hex:           key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "hex dump")),
		Follow:        key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow")),
		Link:          key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "next frame of this call")),
		PrevItem:      key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous body item (hex)")),
		NextItem:      key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next body item (hex)")),
		Filter:        key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Back:          key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back / clear filter")),
		Cancel:        screen.CancelKey("cancel request", "c"), // c: the old key, harmless where nothing is typed
		Copy:          key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		Save:          key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save the capture to a file")),
		SaveContent:   contentsave.Key(),
		Reconnect:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reconnect")),
		ListTools:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tools/list")),
		ReadFile:      key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "read_file 1 MiB")),
		Analyze:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "analyze")),
		Tone:          key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "tone (audio)")),
		Explore:       key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "explore tools, resources, prompts")),
		Compose:       key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "send a raw request")),
		Roots:         key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "edit roots")),
		Wire:          key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "wire ⇄ screen")),
		Server:        key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "server info, instructions, capabilities")),
		Bench:         key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "bench the selected request (load test)")),
		Tasks:         key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "tasks")),
		Subscriptions: key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "subscriptions")),
		Logs:          key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "server log")),
		Findings:      key.NewBinding(key.WithKeys("!"), key.WithHelp("!", "findings")),
		Quit:          key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:          key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		// F1 opens the help where ? is typed text: in a form, the composer, a filter.
		HelpAnywhere: key.NewBinding(key.WithKeys("f1"), key.WithHelp("F1", "help")),
		Panes:        paneKeys(),
	}
}

// paneKeys are the digits that jump to the panes, in tab bar order.
func paneKeys() [paneCount]key.Binding {
	var k [paneCount]key.Binding
	for p := range paneCount {
		d := string(rune('1' + p))
		k[p] = key.NewBinding(key.WithKeys(d), key.WithHelp(d, paneNames[p]))
	}
	return k
}

// ShortHelp is the hint bar's keys, the most used first (hints).
func (k KeyMap) ShortHelp() []key.Binding { return k.hints().Short }

// FullHelp is the help screen, in columns, with every pane's key.
func (k KeyMap) FullHelp() [][]key.Binding { return k.fullHelp(allPanes()) }

// hints ranks the keys of the panes for the hint bar, the most used
// first; q is never cut. ? is not among them: the bar always shows it.
// The digits named are those of the pane keys enabled.
func (k KeyMap) hints() keyhelp.Map {
	var digits []string
	for _, b := range k.Panes {
		if b.Enabled() {
			digits = append(digits, b.Keys()...)
		}
	}
	jump := key.NewBinding(key.WithKeys(digits...), key.WithHelp(digitRuns(k.Panes), "pane"))
	return keyhelp.Map{
		Short: []key.Binding{k.NextPane, k.Detail, k.Filter, keyhelp.Relabel(k.Explore, "explore"),
			keyhelp.Relabel(k.Compose, "compose"), k.Hex, k.Follow, keyhelp.Relabel(k.Cancel, "cancel"),
			keyhelp.Relabel(k.Link, "linked frame"), jump, k.Quit},
		Essential: []key.Binding{k.Quit},
	}
}

// fullHelp is the help screen, in columns: the keys of the panes in s
// (the others are not there to jump to).
func (k KeyMap) fullHelp(s paneSet) [][]key.Binding {
	panes := []key.Binding{k.NextPane, k.PrevPane}
	for p := range paneCount {
		if s[p] {
			panes = append(panes, k.Panes[p])
		}
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		panes,
		{k.Detail, k.Hex, k.Back, k.Link, k.Follow, k.Filter},
		{k.PrevItem, k.NextItem, k.Copy, k.Save, k.SaveContent, k.Cancel, k.Reconnect},
		{k.Explore, k.Compose, k.Server, k.Roots, k.Wire, k.Bench},
		{k.Tasks, k.Subscriptions, k.Logs, k.Findings, k.ListTools, k.ReadFile, k.Analyze, k.Tone},
		{k.Help, k.helpInText(), k.Quit},
	}
}

// helpInText is F1 as the help screen lists it.
func (k KeyMap) helpInText() key.Binding {
	return keyhelp.Relabel(k.HelpAnywhere, "help in a text field")
}
