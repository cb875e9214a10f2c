package compose

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// composeKeys are the keys of the raw request composer. The JSON editor
// sends with its own submit key (ctrl+s), which Send names for the help.
type composeKeys struct {
	Up, Down, PageUp, PageDown key.Binding // the picker's list
	Tab                        key.Binding // methods ⇄ history
	Pick                       key.Binding // open the editor for the selected method
	Toggle                     key.Binding // request ⇄ notification
	Send                       key.Binding // send (from the editor), send again (from the answer)
	Again                      key.Binding // send again, from the answer
	Cancel                     key.Binding // cancel the request waiting for its answer
	Back                       key.Binding // one step back; closes from the picker
}

// defaultComposeKeys returns the composer's bindings.
func defaultComposeKeys() composeKeys {
	return composeKeys{
		Up:       key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Tab:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "methods / history")),
		Pick:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "edit params")),
		Toggle:   key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "request ⇄ notification")),
		Send:     key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send")),
		Again:    key.NewBinding(key.WithKeys("ctrl+s", "s"), key.WithHelp("s", "send again")),
		Cancel:   screen.CancelKey("cancel the request", "c"), // c: harmless while waiting, nothing is typed
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// helpFor lists the keys of a step of the composer, ranked for the hint
// bar with the key that steps back never cut, and every key of the
// composer for the help screen. The picker's filter and the editor take
// typed text.
func (k composeKeys) helpFor(s composeStage, notify bool) help.KeyMap {
	h := keyhelp.Map{Full: [][]key.Binding{
		{k.Pick, k.Up, k.Down, k.PageUp, k.PageDown, k.Tab, k.Toggle},
		{k.Send, k.Again, k.Cancel, keyhelp.Relabel(k.Back, "one step back; closes from the picker")},
	}}
	switch s {
	case stageEdit:
		toggle := keyhelp.Relabel(k.Toggle, "send as notification")
		if notify {
			toggle = keyhelp.Relabel(k.Toggle, "send as request")
		}
		back := keyhelp.Relabel(k.Back, "methods")
		h.Short, h.Essential, h.Typing = []key.Binding{k.Send, toggle, back}, []key.Binding{k.Send, back}, true
	case stageWait:
		back := keyhelp.Relabel(k.Back, "editor")
		h.Short, h.Essential = []key.Binding{k.Cancel, back}, []key.Binding{back}
	case stageAnswer:
		back := keyhelp.Relabel(k.Back, "editor")
		h.Short, h.Essential = []key.Binding{k.Again, keyhelp.Relabel(k.Up, "scroll"), back}, []key.Binding{back}
	default:
		back := keyhelp.Relabel(k.Back, "close")
		h.Short = []key.Binding{k.Pick, k.Up, k.Down, k.Tab, keyhelp.Relabel(k.Toggle, "kind"), back}
		h.Essential, h.Typing = []key.Binding{k.Pick, back}, true
	}
	return h
}
