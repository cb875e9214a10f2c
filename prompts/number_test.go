package prompts_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/prompts"
)

// The answer is a JSON number: as typed for a number, without a fraction
// for an integer; null when nothing is typed.
func TestNumberValue(t *testing.T) {
	for _, c := range []struct{ format, text, want string }{
		{"", "3.50", `3.50`},
		{"", "-0.25", `-0.25`},
		{"", ".5", `0.5`},
		{"", "+2", `2`},
		{"", "1e3", `1e3`},
		{"integer", "7", `7`},
		{"integer", "7.0", `7`},
		{"integer", "1e3", `1000`},
		{"integer", "", `null`},
	} {
		w := newWidget(t, `{"type":"number","message":"n","format":"`+c.format+`"}`, testOptions())
		typeText(w, c.text)
		if got := value(t, w); got != c.want {
			t.Errorf("%s %q: Value = %s, want %s", c.format, c.text, got, c.want)
		}
	}
}

// Each rule has its message: required, a number at all, an integer, the
// bounds (both, the lower, the upper).
func TestNumberValidation(t *testing.T) {
	for _, c := range []struct{ prompt, text, want string }{
		{`{"validation":{"required":true}}`, "", "an answer is required"},
		{`{}`, "abc", "not a number: type a number such as 42 or 3.5"},
		{`{}`, "0x10", "not a number: type a number such as 42 or 3.5"},
		{`{}`, "NaN", "not a number: type a number such as 42 or 3.5"},
		{`{}`, "1e999", "not a number: type a number such as 42 or 3.5"},
		{`{"format":"integer"}`, "x", "not a number: type a whole number such as 42"},
		{`{"format":"integer"}`, "2.5", "must be a whole number (an integer)"},
		{`{"format":"integer","validation":{"min":1,"max":9}}`, "0", "between 1 and 9"},
		{`{"format":"integer","validation":{"min":1,"max":9}}`, "10", "between 1 and 9"},
		{`{"validation":{"min":0.5}}`, "0.25", "at least 0.5"},
		{`{"validation":{"max":1000}}`, "1000.5", "at most 1000"},
		{`{"validation":{"min":0,"max":1000}}`, "1000", ""},
		{`{"validation":{"min":1}}`, "", ""},
	} {
		p := c.prompt[:len(c.prompt)-1]
		if p != "{" {
			p += ","
		}
		w := newWidget(t, p+`"type":"number","message":"n"}`, testOptions())
		typeText(w, c.text)
		err := w.Validate()
		if (err == nil) != (c.want == "") || (err != nil && err.Error() != c.want) {
			t.Errorf("%s %q: Validate = %v, want %q", c.prompt, c.text, err, c.want)
		}
	}
}

// ↑/↓ add or take one, within the bounds; from nothing typed they start
// at the lower bound.
func TestNumberStep(t *testing.T) {
	w := newWidget(t, `{"type":"number","message":"Travellers","format":"integer","validation":{"min":1,"max":3}}`, testOptions())
	press(t, w, "up")
	wantValue(t, w, `1`)
	press(t, w, "up", "up", "up", "up")
	wantValue(t, w, `3`)
	press(t, w, "down")
	wantValue(t, w, `2`)
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Errorf("enter = %v, want submit", a)
	}
	w = newWidget(t, `{"type":"number","message":"n","defaultValue":2.5}`, testOptions())
	press(t, w, "down")
	wantValue(t, w, `1.5`)
	typeText(w, "j") // j types, it does not step
	if _, err := w.Value(); err == nil {
		t.Errorf("Value of 1.5j = nil error, want not a number")
	}
}

// k and j are typed in a number prompt, never a step, and its hints name
// only the arrows that step.
func TestNumberLettersAreTyped(t *testing.T) {
	w := newWidget(t, `{"type":"number","message":"n","defaultValue":2}`, testOptions())
	typeText(w, "k")
	if _, err := w.Value(); err == nil {
		t.Errorf("k stepped the number instead of typing a k")
	}
	for _, b := range w.KeyMap().ShortHelp() {
		if d := b.Help().Desc; d != "+1" && d != "−1" {
			continue
		}
		if strings.Contains(b.Help().Key, "k") || strings.Contains(b.Help().Key, "j") || slices.Contains(b.Keys(), "k") || slices.Contains(b.Keys(), "j") {
			t.Errorf("the hint %q %q holds a letter the prompt types", b.Help().Key, b.Keys())
		}
	}
}
