package contentsave

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
)

func TestPickerCycles(t *testing.T) {
	res := json.RawMessage(`{"content":[{"type":"text","text":"t"},{"type":"image","mimeType":"image/png","data":"AA=="},
		{"type":"resource","resource":{"uri":"demo://r/notes.bin","blob":"AQ=="}}]}`)
	var p Picker
	for _, want := range []string{"content-1.png", "notes.bin", "content-1.png"} {
		it, i, n, err := p.Pick("a", res)
		if err != nil || n != 2 || it.FileName(i) != want {
			t.Errorf("pick: %s %d/%d %v, want %s", it.FileName(i), i, n, err, want)
		}
	}
	if _, i, _, _ := p.Pick("b", res); i != 1 {
		t.Errorf("another result starts at item %d, want 1", i)
	}
	if _, _, _, err := p.Pick("c", json.RawMessage(`{"content":[]}`)); !errors.Is(err, ErrNothing) {
		t.Errorf("nothing to save: %v", err)
	}
}

// Ask writes a new file, and asks before replacing one: n keeps it, y
// replaces it.
func TestAskReplacesOnlyOnYes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.bin")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	it, _, _, _ := new(Picker).Pick("a", json.RawMessage(`{"contents":[{"uri":"demo://x","blob":"bmV3"}]}`))
	answer := func(typed ...string) (SavedMsg, bool) {
		a, _ := NewAsk(it, 1, 1)
		a.Update(keytest.Press("ctrl+u"))
		for _, s := range typed {
			for _, r := range s {
				a.Update(keytest.Press(string(r)))
			}
			cmd, done := a.Update(keytest.Press("enter"))
			if done {
				if cmd == nil {
					return SavedMsg{}, false
				}
				return cmd().(SavedMsg), true
			}
		}
		t.Fatalf("the line is still open after %q", typed)
		return SavedMsg{}, false
	}
	if _, wrote := answer(path, "n"); wrote {
		t.Error("n wrote")
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("n replaced the file: %q", got)
	}
	if msg, wrote := answer(path, "y"); !wrote || msg.Err != nil || msg.Bytes != 3 {
		t.Errorf("y: %+v %v", msg, wrote)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("y did not replace the file: %q", got)
	}
	fresh := filepath.Join(filepath.Dir(path), "fresh.bin")
	if msg, wrote := answer(fresh); !wrote || msg.Err != nil {
		t.Errorf("a new file: %+v", msg)
	}
	if note, err := (SavedMsg{Path: fresh, Bytes: 3}).Report(); err != nil || note != "saved 3 B to "+fresh {
		t.Errorf("report %q %v", note, err)
	}
}

// Replacing through a symbolic link replaces the file it names: the
// question names that file too.
func TestReplacePromptNamesLinkTarget(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real.png"), filepath.Join(dir, "link.png")
	if err := os.WriteFile(real, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.png", link); err != nil {
		t.Fatal(err)
	}
	if got, want := ReplacePrompt(link), "replace "+link+" → "+real+"? y/n: "; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := ReplacePrompt(real), "replace "+real+"? y/n: "; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
