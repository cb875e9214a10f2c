package prompts_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/prompts"
)

// Each widget as the user sees it after a few keys.
func TestGoldenWidgets(t *testing.T) {
	flat := t.TempDir()
	for name, content := range map[string]string{"a.csv": "1,2\n", "b.json": "{}", "c.txt": "hello", "d.png": "png"} {
		if err := os.WriteFile(filepath.Join(flat, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, prompt string
		keys         []string
		text         string
		w, h         int
	}{
		{"text", `{"type":"text","message":"Where to?","placeholder":"a city","validation":{"required":true,"pattern":"^[A-Za-z ]+$","min":2,"max":40}}`, nil, "Oslo 2", 60, 8},
		{"text_error", `{"type":"text","message":"Where to?","validation":{"min":2}}`, []string{"enter"}, "a", 60, 8},
		{"choice", classPrompt, []string{"down"}, "", 60, 8},
		{"choice_multi", `{"type":"choice","message":"Extras?","multiple":true,"validation":{"required":true},"choices":[{"value":"bag","label":"Checked bag","description":"23 kg"},{"value":"meal"},{"value":"seat","label":"Seat choice"}]}`, []string{"space", "down", "down", "space", "up"}, "", 60, 8},
		{"choice_scrolled", `{"type":"choice","message":"Pick","choices":[{"value":1},{"value":2},{"value":3},{"value":4},{"value":5},{"value":6}]}`, []string{"up", "up"}, "", 30, 4},
		{"confirm", `{"type":"confirm","message":"Book this trip?","defaultValue":true}`, []string{"right"}, "", 60, 4},
		{"number", `{"type":"number","message":"How many travellers?","format":"integer","validation":{"required":true,"min":1,"max":9}}`, []string{"enter"}, "12", 60, 6},
		{"date", `{"type":"date","message":"Departure date?","validation":{"required":true}}`, []string{"right", "down", "right"}, "", 60, 16},
		{"date_typed_error", `{"type":"date","message":"Departure date?"}`, []string{"enter"}, "2026-02-30", 60, 16},
		{"date_short", `{"type":"date","message":"Departure date?"}`, []string{"right"}, "", 60, 4},
		{"datetime", `{"type":"date","message":"Meeting at?","format":"date-time"}`, nil, "2026-05-20T14:30", 60, 16},
		{"file", `{"type":"file","message":"Upload the report","accept":[".csv",".json",".txt"]}`, []string{"down", "down", "down", "enter"}, "", 60, 12},
		{"custom", customPrompt, []string{"ctrl+s"}, "", 60, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := testOptions()
			opts.Dir = flat
			w := newWidget(t, c.prompt, opts)
			typeText(w, c.text)
			press(t, w, c.keys...)
			out := w.Render(c.w, c.h)
			if n := strings.Count(out, "\n") + 1; n > c.h {
				t.Errorf("render has %d lines for a height of %d", n, c.h)
			}
			golden(t, c.name, out)
		})
	}
}

// A refusal from the server sits under the answer with its suggestion.
func TestGoldenRefusal(t *testing.T) {
	w := newWidget(t, `{"type":"date","message":"Departure date?"}`, testOptions())
	typeText(w, "2026-05-01")
	w.SetRefusal(errors.New("the date is in the past"), "Use a date after 2026-05-14")
	golden(t, "refusal", w.Render(60, 16))
}

// Widgets are drawn within the height they are given, however small.
func TestRenderHeights(t *testing.T) {
	for _, p := range []string{textPrompt, classPrompt, customPrompt, `{"type":"date","message":"d","format":"date-time"}`} {
		w := newWidget(t, p, testOptions())
		w.SetRefusal(errors.New("refused for a reason that takes a few words"), "answer otherwise")
		press(t, w, "enter")
		for h := 1; h <= 12; h++ {
			out := w.Render(24, h)
			if n := strings.Count(out, "\n") + 1; n > h {
				t.Errorf("%s: %d lines for a height of %d:\n%s", p, n, h, out)
			}
		}
	}
	if a := press(t, newWidget(t, textPrompt, testOptions()), "esc"); a != prompts.ActionCancel {
		t.Errorf("esc = %v", a)
	}
}
