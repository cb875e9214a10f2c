package compose

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

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

// helpFor lists the keys of a step of the composer.
func (k composeKeys) helpFor(s composeStage, notify bool) help.KeyMap {
	switch s {
	case stageEdit:
		toggle := screen.Relabel(k.Toggle, "send as notification")
		if notify {
			toggle = screen.Relabel(k.Toggle, "send as request")
		}
		return screen.Bindings{k.Send, toggle, screen.Relabel(k.Back, "methods")}
	case stageWait:
		return screen.Bindings{k.Cancel, screen.Relabel(k.Back, "editor")}
	case stageAnswer:
		return screen.Bindings{k.Again, screen.Relabel(k.Up, "scroll"), screen.Relabel(k.Back, "editor")}
	}
	return screen.Bindings{k.Pick, k.Up, k.Down, k.Tab, screen.Relabel(k.Toggle, "kind"), screen.Relabel(k.Back, "close")}
}
