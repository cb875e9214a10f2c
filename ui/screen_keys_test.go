package ui

import (
	"testing"
)

// notAKeyOfTheScreen is the status line of a typed key a screen has no use for.
const notAKeyOfTheScreen = "z is not a key of this screen: ? lists them"

// On the server view and the roots editor, a typed key that is no key of
// the screen says so in the status line instead of being swallowed.
func TestScreensSayWhyAKeyDoesNothing(t *testing.T) {
	m := connectedModel(t)
	press(m, "i")
	if cmd := press(m, "z"); cmd != nil {
		m.Update(cmd())
	}
	if m.status.err != notAKeyOfTheScreen {
		t.Errorf("z on the server view: status %q", m.status.err)
	}

	q, r, _ := questionModel(t, nil, 100, 30)
	r.Press("ctrl+r")
	rootsOf(t, q)
	r.Press("z")
	r.Until("z on the roots editor says why it does nothing", func() bool { return q.status.err == notAKeyOfTheScreen })
}
