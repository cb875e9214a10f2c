package schemaform

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
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
	}
}

// helpKeys is a help.KeyMap made of the bindings that apply right now.
type helpKeys []key.Binding

// ShortHelp implements help.KeyMap.
func (h helpKeys) ShortHelp() []key.Binding { return h }

// FullHelp implements help.KeyMap.
func (h helpKeys) FullHelp() [][]key.Binding { return [][]key.Binding{h} }

var _ help.KeyMap = helpKeys(nil)

// formHelp lists the keys of a form whose focused field is of kind k.
func (k KeyMap) formHelp(focused kind, hasField bool) help.KeyMap {
	h := helpKeys{}
	if hasField {
		h = append(h, k.Next, k.Prev)
	}
	switch focused {
	case kindBool:
		h = append(h, withHelp(k.Toggle, "toggle"), k.Clear)
	case kindChoice, kindMulti:
		h = append(h, k.Choose, k.Toggle, k.Clear)
	}
	return append(h, k.Enter, k.Submit, k.EditJSON, k.Cancel)
}

// editorHelp lists the keys of the JSON editor; back says whether ctrl+e
// returns to a form.
func (k KeyMap) editorHelp(back bool) help.KeyMap {
	h := helpKeys{k.Submit, k.Cancel}
	if back {
		h = append(h, withHelp(k.EditJSON, "back to the form"))
	}
	return h
}

// withHelp returns b with another description.
func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
