package wizard

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
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
	Confirm      key.Binding // cancel the session, asked (y: esc never confirms)
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
		Confirm:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "cancel the session")),
		Keep:         key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "keep it")),
	}
}

// Help lists the keys of what the wizard shows: the state view, the end,
// the answer in flight, or the prompt's widget (whose keys, and whether
// it takes typed text, come first). The close or cancel key is never cut
// from the hint bar, and the help lists the widget's keys and the
// wizard's.
func (w *Wizard) Help() help.KeyMap {
	k := w.keys
	own := []key.Binding{keyhelp.Relabel(k.Cancel, "cancel the session (asks first)"), k.Confirm, k.Keep, k.CancelAnswer,
		k.State, keyhelp.Relabel(k.StateClose, "back from the state"), keyhelp.Relabel(k.Close, "close, once ended"), k.Scroll}
	h := keyhelp.Map{Full: [][]key.Binding{own}}
	switch {
	case w.state != nil:
		h.Short, h.Essential = []key.Binding{k.Scroll, k.StateClose}, []key.Binding{k.StateClose}
	case w.confirming:
		h.Short, h.Essential = []key.Binding{k.Confirm, k.Keep}, []key.Binding{k.Confirm, k.Keep}
	case w.phase == wizEnded:
		h.Short, h.Essential = []key.Binding{k.Scroll, k.State, k.Close}, []key.Binding{k.Close}
	case w.phase == wizSending:
		h.Short, h.Essential = []key.Binding{k.CancelAnswer, k.State, k.Cancel}, []key.Binding{k.Cancel}
	case w.phase == wizAnswering && w.widget != nil:
		wk := keyhelp.Of(w.widget.KeyMap())
		h.Short, h.Essential, h.Typing = append(slices.Clone(wk.Short), k.State), wk.Essential, wk.Typing
		h.Full = append(slices.Clone(wk.FullHelp()), own)
	default:
		h.Short, h.Essential = []key.Binding{k.State, k.Cancel}, []key.Binding{k.Cancel}
	}
	return h
}
