// Package keytest turns key names, spelled as key.Binding spells them
// ("enter", "shift+tab", "ctrl+s", "G"), into the key presses Bubble Tea
// delivers, for tests that drive components by keys.
package keytest

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// special are the named keys that are not a printable character.
var special = map[string]tea.KeyPressMsg{
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"tab":       {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"space":     {Code: tea.KeySpace, Text: " "},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"pgup":      {Code: tea.KeyPgUp},
	"pgdown":    {Code: tea.KeyPgDown},
	"home":      {Code: tea.KeyHome},
	"end":       {Code: tea.KeyEnd},
	"backspace": {Code: tea.KeyBackspace},
	"delete":    {Code: tea.KeyDelete},
	"f1":        {Code: tea.KeyF1},
}

// Key returns the key press of name: a named key, ctrl+<letter>, or one
// character (an upper-case letter comes with shift). ok is false for any
// other name.
func Key(name string) (msg tea.KeyPressMsg, ok bool) {
	if k, ok := special[name]; ok {
		return k, true
	}
	if c, ok := strings.CutPrefix(name, "ctrl+"); ok && len(c) == 1 {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}, true
	}
	r, size := utf8.DecodeRuneInString(name)
	if size == 0 || size != len(name) {
		return tea.KeyPressMsg{}, false
	}
	if r >= 'A' && r <= 'Z' {
		return tea.KeyPressMsg{Code: r + ('a' - 'A'), ShiftedCode: r, Mod: tea.ModShift, Text: name}, true
	}
	return tea.KeyPressMsg{Code: r, Text: name}, true
}

// Keys returns the key presses of names; it panics on a name Key does not
// know, which is a mistake in the test.
func Keys(names ...string) []tea.KeyPressMsg {
	out := make([]tea.KeyPressMsg, len(names))
	for i, n := range names {
		k, ok := Key(n)
		if !ok {
			panic(fmt.Sprintf("keytest: no key named %q", n))
		}
		out[i] = k
	}
	return out
}

// Press is the key press of name as Key reads it; an unknown longer name
// presses its first character.
func Press(name string) tea.KeyPressMsg {
	if msg, ok := Key(name); ok {
		return msg
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
}
