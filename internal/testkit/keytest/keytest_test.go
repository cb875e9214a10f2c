package keytest

import "testing"

func TestKeyNamesMatchBubbleTea(t *testing.T) {
	for _, name := range []string{"enter", "esc", "tab", "shift+tab", "space", "up", "down", "left", "right",
		"pgup", "pgdown", "home", "end", "backspace", "delete", "f1", "ctrl+s", "ctrl+c", "a", "G", ":", "/", "é"} {
		k, ok := Key(name)
		if !ok {
			t.Fatalf("Key(%q) unknown", name)
		}
		if got := k.String(); got != name {
			t.Errorf("Key(%q).String() = %q", name, got)
		}
	}
	if _, ok := Key("no such key"); ok {
		t.Error("an unknown name was accepted")
	}
	if got := Keys("tab", "x"); len(got) != 2 || got[1].Code != 'x' {
		t.Errorf("Keys = %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Keys accepted an unknown name")
		}
	}()
	_ = Keys("bogus name")
}
