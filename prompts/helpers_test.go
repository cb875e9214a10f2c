package prompts_test

import (
	"encoding/json"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// testNow is the clock of the date widgets in the tests: Thursday
// 14 May 2026, 09:30 UTC.
var testNow = time.Date(2026, time.May, 14, 9, 30, 0, 0, time.UTC)

// testOptions are the options of the widgets in the tests.
func testOptions() prompts.Options {
	return prompts.Options{Now: func() time.Time { return testNow }}
}

// decodePrompt decodes a prompt; the test fails on error.
func decodePrompt(t testing.TB, prompt string) mcp.InteractionPrompt {
	t.Helper()
	var p mcp.InteractionPrompt
	if err := json.Unmarshal([]byte(prompt), &p); err != nil {
		t.Fatalf("decoding the prompt: %v", err)
	}
	return p
}

// newWidget decodes a prompt and makes its widget; the test fails on
// error.
func newWidget(t testing.TB, prompt string, opts prompts.Options) prompts.Widget {
	t.Helper()
	w, err := prompts.New(decodePrompt(t, prompt), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return w
}

// press sends named keys, running what the widget asks for (a directory
// listing) before the next key, and returns the action of the last one.
func press(t testing.TB, w prompts.Widget, keys ...string) prompts.Action {
	t.Helper()
	var a prompts.Action
	for _, k := range keys {
		msg, ok := keytest.Key(k)
		if !ok {
			t.Fatalf("no key named %q in the test table", k)
		}
		a = send(w, msg)
	}
	return a
}

// send delivers one message and then the messages of the commands it
// returns that finish at once (a directory listing; never a blink timer).
func send(w prompts.Widget, msg tea.Msg) prompts.Action {
	a, cmd := w.Update(msg)
	if w.Prompt().Type == mcp.PromptFile && cmd != nil {
		if next := cmd(); next != nil {
			w.Update(next)
		}
	}
	return a
}

// typeText types s one key at a time, as a terminal delivers it.
func typeText(w prompts.Widget, s string) {
	for _, r := range s {
		if r == ' ' {
			w.Update(keytest.Keys("space")[0])
			continue
		}
		w.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// value returns Value() as a string; the test fails on error.
func value(t testing.TB, w prompts.Widget) string {
	t.Helper()
	v, err := w.Value()
	if err != nil {
		t.Fatalf("Value: %v", err)
	}
	return string(v)
}

// wantValue checks Value() byte for byte.
func wantValue(t testing.TB, w prompts.Widget, want string) {
	t.Helper()
	if got := value(t, w); got != want {
		t.Errorf("Value() = %s, want %s", got, want)
	}
}

// golden compares a render, ANSI stripped, with testdata/NAME.golden;
// -update rewrites the file.
func golden(t *testing.T, name, render string) {
	t.Helper()
	goldentest.Check(t, name, goldentest.Plain(render)+"\n")
}
