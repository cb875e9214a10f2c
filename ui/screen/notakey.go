package screen

import (
	"errors"

	tea "charm.land/bubbletea/v2"
)

// NotAKey is what a screen returns for a key it has no use for: for a
// typed key, a command reporting in the status line that it is no key of
// the screen (a key is never swallowed silently); nil for a key that
// types nothing (a modifier, a function key).
func NotAKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.Text == "" {
		return nil
	}
	err := errors.New(msg.String() + " is not a key of this screen: ? lists them")
	return func() tea.Msg { return ErrorMsg{Err: err} }
}
