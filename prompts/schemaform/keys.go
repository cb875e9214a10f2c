package schemaform

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
)

// KeyMap holds the keys of the form and of the JSON editor.
type KeyMap struct {
	Next     key.Binding // next field
	Prev     key.Binding // previous field
	Enter    key.Binding // next field, or submit on the last one
	Toggle   key.Binding // toggle a boolean, select an option
	Choose   key.Binding // move between the options of a choice
	Clear    key.Binding // unset a boolean or a choice
	Submit   key.Binding // validate and submit
	Cancel   key.Binding // abandon the form
	EditJSON key.Binding // switch between the form and the JSON editor

	SuggestDown  key.Binding // the next suggestion under a field
	SuggestUp    key.Binding // the previous suggestion
	SuggestTake  key.Binding // put the suggestion chosen into the field
	SuggestClose key.Binding // close the suggestions
}

// DefaultKeyMap returns the keys described in the package documentation.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next:     key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		Prev:     key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Enter:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next / submit")),
		Toggle:   key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "select")),
		Choose:   key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "option")),
		Clear:    key.NewBinding(key.WithKeys("backspace", "delete"), key.WithHelp("del", "unset")),
		Submit:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "submit")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		EditJSON: key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "edit as JSON")),

		SuggestDown:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next suggestion")),
		SuggestUp:    key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous suggestion")),
		SuggestTake:  key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter/tab", "take the suggestion")),
		SuggestClose: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close the suggestions")),
	}
}

// fullHelp is every key of the form and of its JSON editor, in columns.
func (k KeyMap) fullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Prev, k.Enter},
		{k.Choose, k.Toggle, k.Clear},
		{k.Submit, k.EditJSON, k.Cancel},
	}
}

// pick is Choose and Toggle as one hint, short enough for a narrow hint
// bar: move to an option, then select it.
func (k KeyMap) pick() key.Binding {
	return key.NewBinding(key.WithKeys(append(slices.Clone(k.Choose.Keys()), k.Toggle.Keys()...)...),
		key.WithHelp(k.Choose.Help().Key+" "+k.Toggle.Help().Key, "choose"))
}

// formHelp lists the keys of a form whose focused field is of kind k.
// Submit and cancel are never cut from the hint bar, nor, on a choice or
// a toggle, the keys that pick; every field but those takes typed text.
func (k KeyMap) formHelp(focused kind, hasField bool) help.KeyMap {
	h := keyhelp.Map{Essential: []key.Binding{k.Submit, k.Cancel}, Full: k.fullHelp()}
	switch focused {
	case kindBool:
		toggle := keyhelp.Relabel(k.Toggle, "toggle")
		h.Short = append(h.Short, toggle)
		h.Essential = append(h.Essential, toggle)
	case kindChoice, kindMulti:
		pick := k.pick()
		h.Short = append(h.Short, pick)
		h.Essential = append(h.Essential, pick)
	case kindGroup:
	default:
		h.Typing = true
	}
	h.Short = append(h.Short, k.Submit)
	if hasField {
		h.Short = append(h.Short, k.Next, k.Prev)
	}
	if focused == kindBool || focused == kindChoice || focused == kindMulti {
		h.Short = append(h.Short, k.Clear)
	}
	h.Short = append(h.Short, k.Enter, k.EditJSON, k.Cancel)
	return h
}

// suggestHelp lists the keys while suggestions are open under a field:
// typing goes on editing it.
func (k KeyMap) suggestHelp() help.KeyMap {
	short := []key.Binding{k.SuggestTake, k.SuggestDown, k.SuggestUp, k.SuggestClose, k.Submit}
	return keyhelp.Map{Short: short, Essential: []key.Binding{k.SuggestTake, k.SuggestClose}, Typing: true,
		Full: append([][]key.Binding{short[:4]}, k.fullHelp()...)}
}

// editorHelp lists the keys of the JSON editor; back says whether ctrl+e
// returns to a form.
func (k KeyMap) editorHelp(back bool) help.KeyMap {
	h := keyhelp.Map{Short: []key.Binding{k.Submit, k.Cancel}, Essential: []key.Binding{k.Submit, k.Cancel}, Typing: true}
	if back {
		h.Short = append(h.Short, keyhelp.Relabel(k.EditJSON, "back to the form"))
	}
	h.Full = [][]key.Binding{h.Short}
	return h
}
