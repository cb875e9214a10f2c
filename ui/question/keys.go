package question

import "charm.land/bubbles/v2/key"

// questionKeys are the keys of the server's questions: the same accept,
// decline and cancel for every kind, y/n for a URL's consent.
type questionKeys struct {
	Accept   key.Binding // accept the form / send the reply
	Decline  key.Binding // decline the question
	Cancel   key.Binding // dismiss it without choosing
	Yes, No  key.Binding // consent to a URL, or not
	Next     key.Binding // next widget (sampling: reply ⇄ model)
	PageUp   key.Binding // scroll what the server sent
	PageDown key.Binding
}

// defaultQuestionKeys returns the bindings of the questions.
func defaultQuestionKeys() questionKeys {
	return questionKeys{
		Accept:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "accept")),
		Decline:  key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "decline")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Yes:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "accept")),
		No:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "decline")),
		Next:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "reply ⇄ model")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
	}
}
