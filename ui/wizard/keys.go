package wizard

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/ui/screen"
)

// wizardKeyMap holds the wizard's own keys; the prompt's widget has its
// keys (prompts.KeyMap) and scrolling uses the root's.
type wizardKeyMap struct {
	Cancel       key.Binding // interaction.cancel
	Close        key.Binding // close the ended session
	CancelAnswer key.Binding // cancel the interaction.respond in flight
	State        key.Binding // interaction.getState
	StateClose   key.Binding // back from the state view
	Scroll       key.Binding
	Confirm      key.Binding // cancel the session, asked
	Keep         key.Binding // keep the session, asked
}

// defaultWizardKeys returns the wizard's keys. The cancel key of every
// screen (screen.CancelKey) cancels the answer in flight.
func defaultWizardKeys() wizardKeyMap {
	return wizardKeyMap{
		Cancel:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel the session")),
		Close:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		CancelAnswer: screen.CancelKey("cancel the answer in flight"),
		State:        key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "session state")),
		StateClose:   key.NewBinding(key.WithKeys("esc", "ctrl+g"), key.WithHelp("esc", "back")),
		Scroll:       key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓ pgup/pgdn", "scroll")),
		Confirm:      key.NewBinding(key.WithKeys("y", "esc"), key.WithHelp("y/esc", "cancel the session")),
		Keep:         key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "keep it")),
	}
}

// Help lists the keys of what the wizard shows: the state view, the end,
// the answer in flight, or the prompt's widget.
func (w *Wizard) Help() help.KeyMap {
	k := w.keys
	switch {
	case w.state != nil:
		return screen.Bindings{k.Scroll, k.StateClose}
	case w.confirming:
		return screen.Bindings{k.Confirm, k.Keep}
	case w.phase == wizEnded:
		return screen.Bindings{k.Scroll, k.State, k.Close}
	case w.phase == wizSending:
		return screen.Bindings{k.CancelAnswer, k.State, k.Cancel}
	case w.phase == wizAnswering && w.widget != nil:
		return screen.Bindings(slices.Concat(w.widget.KeyMap().ShortHelp(), []key.Binding{k.State}))
	}
	return screen.Bindings{k.State, k.Cancel}
}
