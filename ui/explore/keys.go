package explore

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/ui/screen"
)

// exploreKeyMap holds the explorer's own keys; scrolling uses the root's.
type exploreKeyMap struct {
	NextTab, PrevTab, PickTab key.Binding
	Filter, Open, Refresh     key.Binding
	Form                      key.Binding // the tools/call form, on a server that runs wizards
	Back, Close, CancelCall   key.Binding
	Again, Scroll, Frames     key.Binding
	FilterDone, FilterClear   key.Binding
}

// defaultExploreKeys returns the explorer's keys.
func defaultExploreKeys() exploreKeyMap {
	return exploreKeyMap{
		NextTab:     key.NewBinding(key.WithKeys("right", "tab"), key.WithHelp("→/tab", "next list")),
		PrevTab:     key.NewBinding(key.WithKeys("left", "shift+tab"), key.WithHelp("←", "previous list")),
		PickTab:     key.NewBinding(key.WithKeys("1", "2", "3", "4"), key.WithHelp("1-4", "list")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "call / read / get")),
		Form:        key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "tools/call form")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload all lists")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the list")),
		Close:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter / close")),
		CancelCall:  key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel the request")),
		Again:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "again")),
		Frames:      key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "its frames on the wire")),
		Scroll:      key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓ pgup/pgdn", "scroll")),
		FilterDone:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		FilterClear: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}

// Help lists the keys of the explorer's current screen.
func (x *Explorer) Help() help.KeyMap {
	k := x.keys
	switch {
	case x.mode == modeWizard && x.wiz != nil:
		return x.wiz.Help()
	case x.mode == modeForm && x.form != nil:
		return x.form.KeyMap()
	case x.mode == modeCalling:
		return screen.Bindings{k.CancelCall, k.Frames, k.Back}
	case x.mode == modeOutcome:
		return screen.Bindings{k.Scroll, k.Again, k.Frames, k.Back}
	case x.filtering:
		return screen.Bindings{k.FilterDone, k.FilterClear}
	}
	if x.tab == tabTools && x.interactive() {
		open := k.Open
		open.SetHelp("enter", "start a wizard")
		return screen.Bindings{open, k.Form, k.Filter, k.NextTab, k.PickTab, k.Refresh, k.Close}
	}
	return screen.Bindings{k.Open, k.Filter, k.NextTab, k.PickTab, k.Refresh, k.Close}
}
