package prompts_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/prompts"
)

// fuzzPrompts has one prompt of every type and variant.
var fuzzPrompts = []string{
	textPrompt,
	`{"type":"text","message":"m","validation":{"pattern":"(?=x)","max":0}}`,
	classPrompt,
	`{"type":"choice","message":"m","multiple":true,"validation":{"required":true},"choices":[{"value":1},{"value":"b","description":"d"},{"value":null}]}`,
	`{"type":"confirm","message":"m","defaultValue":"yes"}`,
	`{"type":"number","message":"m","format":"integer","validation":{"required":true,"min":1,"max":9}}`,
	`{"type":"number","message":"m","defaultValue":1e308,"validation":{"max":-1e308}}`,
	`{"type":"date","message":"m","defaultValue":"2026-12-31"}`,
	`{"type":"date","message":"m","format":"date-time","defaultValue":"9999-12-31T23:59:59Z"}`,
	`{"type":"date","message":"m","defaultValue":"0001-01-01"}`,
	`{"type":"file","message":"m","accept":[".csv","text/plain"],"validation":{"required":true}}`,
	customPrompt,
	`{"type":"custom","message":"m","schema":"not a schema"}`,
}

// fuzzKeys are the messages a fuzzed session sends, picked by the input.
var fuzzKeys = append(messages(keytest.Keys("tab", "shift+tab", "space", "left", "right", "up",
	"down", "pgup", "pgdown", "backspace", "delete", "enter", "ctrl+s", "y", "n")),
	tea.KeyPressMsg{Code: '1', Text: "1"}, tea.KeyPressMsg{Code: '0', Text: "0"}, tea.KeyPressMsg{Code: '-', Text: "-"},
	tea.KeyPressMsg{Code: ':', Text: ":"}, tea.KeyPressMsg{Code: 'T', Text: "T"}, tea.KeyPressMsg{Code: 'Z', Text: "Z"},
	tea.KeyPressMsg{Code: '+', Text: "+"}, tea.KeyPressMsg{Code: '.', Text: "."}, tea.KeyPressMsg{Code: 'a', Text: "a"},
	tea.KeyPressMsg{Code: '{', Text: "{"}, tea.KeyPressMsg{Code: '}', Text: "}"}, tea.KeyPressMsg{Code: '"', Text: `"`},
	tea.PasteMsg{Content: "2026-05-01T10:30:00+02:00"}, tea.PasteMsg{Content: "2026-02-29"},
	tea.BackgroundColorMsg{}, tea.WindowSizeMsg{Width: 30, Height: 5},
)

// messages widens key presses to messages.
func messages(keys []tea.KeyPressMsg) []tea.Msg {
	out := make([]tea.Msg, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}

// FuzzWidgets presses random keys in every widget and renders at random
// sizes: nothing may panic, a render keeps to its height, and an answer
// submitted is JSON that passes the widget's own checks.
func FuzzWidgets(f *testing.F) {
	dir := f.TempDir()
	for name, content := range map[string]string{"a.csv": "1", "b.txt": "2", "sub/c.csv": "3"} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for i := range fuzzPrompts {
		f.Add(uint8(i), []byte{3, 4, 5, 6, 7, 8, 11, 0, 1, 2, 9, 11, 12, 13})
		f.Add(uint8(i), []byte("\x10\x11\x12\x13\x14\x15\x16\x17\x0b\x1b\x1c\x1d\x0c"))
	}
	f.Fuzz(func(t *testing.T, which uint8, keys []byte) {
		opts := testOptions()
		opts.Dir, opts.MaxFileSize = dir, 2
		w := newWidget(t, fuzzPrompts[int(which)%len(fuzzPrompts)], opts)
		for i, k := range keys {
			if i == 96 {
				break
			}
			if send(w, fuzzKeys[int(k)%len(fuzzKeys)]) == prompts.ActionSubmit {
				v, err := w.Value()
				if err != nil || !json.Valid(v) {
					t.Fatalf("submitted, but Value() = %s, %v", v, err)
				}
				if err := w.Validate(); err != nil {
					t.Fatalf("submitted, but Validate() = %v", err)
				}
			}
			width, h := 1+int(k)%70, 1+int(k>>1)%20
			w.SetSize(width, h)
			if n := strings.Count(w.Render(width, h), "\n") + 1; n > h {
				t.Fatalf("render has %d lines for a height of %d", n, h)
			}
		}
		_, _ = w.Value()
		_ = w.KeyMap().FullHelp()
	})
}
