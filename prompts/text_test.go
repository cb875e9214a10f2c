package prompts_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts"
)

const textPrompt = `{"type":"text","message":"Enter text:","placeholder":"Type here...","defaultValue":"default",
	"validation":{"required":true,"pattern":"^[a-z]+$","min":3,"max":10}}`

// Typing edits the default; the value is the text as a JSON string, with
// <, > and & kept as they are.
func TestTextTyping(t *testing.T) {
	w := newWidget(t, textPrompt, testOptions())
	wantValue(t, w, `"default"`)
	press(t, w, "backspace", "backspace", "backspace", "backspace")
	typeText(w, "ine")
	wantValue(t, w, `"define"`)

	w = newWidget(t, `{"type":"text","message":"Say"}`, testOptions())
	typeText(w, `a "b" <c> & ü`)
	wantValue(t, w, `"a \"b\" <c> & ü"`)
}

// Each declared rule is checked with a message that explains itself.
func TestTextValidation(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "an answer is required"},
		{"   ", "an answer is required"},
		{"ab", "at least 3 characters"},
		{"abcdefghijk", "at most 10 characters"},
		{"Abc", "must match ^[a-z]+$"},
		{"abc1", "must match ^[a-z]+$"},
		{"abc", ""},
		{"üüü", "must match ^[a-z]+$"}, // three characters, not six bytes
	} {
		w := newWidget(t, `{"type":"text","message":"m","validation":{"required":true,"pattern":"^[a-z]+$","min":3,"max":10}}`, testOptions())
		typeText(w, c.text)
		err := w.Validate()
		if (err == nil) != (c.want == "") || (err != nil && err.Error() != c.want) {
			t.Errorf("%q: Validate = %v, want %q", c.text, err, c.want)
		}
	}
	w := newWidget(t, `{"type":"text","message":"m","validation":{"min":1}}`, testOptions())
	if err := w.Validate(); err != nil {
		t.Errorf("an empty optional answer: Validate = %v, want none", err)
	}
	typeText(w, " ")
	if err := w.Validate(); err != nil {
		t.Errorf("one space: Validate = %v, want none", err)
	}
	w = newWidget(t, `{"type":"text","message":"m","validation":{"min":2}}`, testOptions())
	typeText(w, "a")
	if err := w.Validate(); err == nil || err.Error() != "at least 2 characters" {
		t.Errorf("Validate = %v, want at least 2 characters", err)
	}
	w = newWidget(t, `{"type":"text","message":"m","validation":{"max":1}}`, testOptions())
	typeText(w, "ab")
	if err := w.Validate(); err == nil || err.Error() != "at most 1 character" {
		t.Errorf("Validate = %v, want at most 1 character", err)
	}
}

// Enter answers only a valid text; the message shows at the widget and
// follows the typing until the text is fixed; esc cancels.
func TestTextSubmit(t *testing.T) {
	w := newWidget(t, `{"type":"text","message":"Name?","validation":{"min":3}}`, testOptions())
	typeText(w, "ab")
	if a := press(t, w, "enter"); a != prompts.ActionNone {
		t.Fatalf("enter on a short text = %v, want none", a)
	}
	if out := goldentest.Plain(w.Render(40, 6)); !strings.Contains(out, "✗ at least 3 characters") {
		t.Errorf("render does not show the message:\n%s", out)
	}
	typeText(w, "c")
	if out := goldentest.Plain(w.Render(40, 6)); strings.Contains(out, "✗") {
		t.Errorf("the message stays after the fix:\n%s", out)
	}
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Errorf("enter on a valid text = %v, want submit", a)
	}
	if a := press(t, w, "esc"); a != prompts.ActionCancel {
		t.Errorf("esc = %v, want cancel", a)
	}
}

// A pattern Go cannot compile is left to the server, and the widget says so.
func TestTextPatternNotCompiled(t *testing.T) {
	w := newWidget(t, `{"type":"text","message":"m","validation":{"pattern":"^(?=a)b$"}}`, testOptions())
	typeText(w, "zzz")
	if err := w.Validate(); err != nil {
		t.Errorf("Validate = %v, want the pattern left to the server", err)
	}
	if out := goldentest.Plain(w.Render(80, 6)); !strings.Contains(out, "not checked here") {
		t.Errorf("render does not say the pattern is not checked:\n%s", out)
	}
}

// A refusal from the server shows at the widget, with its suggestion,
// until the next edit.
func TestRefusalShownUntilEdit(t *testing.T) {
	w := newWidget(t, `{"type":"text","message":"Email?"}`, testOptions())
	typeText(w, "ada")
	w.SetRefusal(errors.New("not an email address"), "Use name@example.com")
	out := goldentest.Plain(w.Render(60, 8))
	if !strings.Contains(out, "✗ refused: not an email address") || !strings.Contains(out, "→ Use name@example.com") {
		t.Fatalf("render does not show the refusal:\n%s", out)
	}
	press(t, w, "left") // moves the cursor: not an edit
	if out := goldentest.Plain(w.Render(60, 8)); !strings.Contains(out, "refused") {
		t.Errorf("the refusal went away without an edit:\n%s", out)
	}
	typeText(w, "@x.org")
	if out := goldentest.Plain(w.Render(60, 8)); strings.Contains(out, "refused") || strings.Contains(out, "→") {
		t.Errorf("the refusal stays after an edit:\n%s", out)
	}
}

// A retry prompt carries the reason of the refusal: the widget opens with
// it shown.
func TestRetryPromptShowsError(t *testing.T) {
	w := newWidget(t, `{"type":"date","message":"Date?","error":"the date is in the past","suggestion":"Use a date after 2026-05-14"}`, testOptions())
	out := goldentest.Plain(w.Render(60, 14))
	if !strings.Contains(out, "✗ refused: the date is in the past") || !strings.Contains(out, "→ Use a date after 2026-05-14") {
		t.Errorf("render does not show the retry's reason:\n%s", out)
	}
}

// New refuses what no widget can answer.
func TestNewRefuses(t *testing.T) {
	for _, p := range []string{
		`{"type":"slider","message":"m"}`,
		`{"type":"choice","message":"m"}`,
	} {
		if _, err := prompts.New(decodePrompt(t, p), testOptions()); err == nil {
			t.Errorf("%s: New = nil error", p)
		}
	}
}
