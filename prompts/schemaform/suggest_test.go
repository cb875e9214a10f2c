package schemaform_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// promptForm is the form of a prompt's two string arguments.
const promptForm = `{"type":"object","properties":{
	"department":{"type":"string","description":"the department"},
	"name":{"type":"string"}},"required":["department"]}`

// The list opens under the focused field, the arrows move the choice,
// enter takes it, and the value goes into the field; tab takes too, esc
// closes the list and leaves the form open.
func TestSuggestionsTakeAndClose(t *testing.T) {
	f := newForm(t, promptForm, schemaform.Options{Title: "prompts/get completable-prompt"})
	typeText(f, "S")
	if name, text, ok := f.FocusedText(); !ok || name != "department" || text != "S" {
		t.Fatalf("FocusedText() = %q %q %v", name, text, ok)
	}
	if !f.Suggest("department", "S", schemaform.Suggestions{Values: []string{"Sales", "Support"}}) || !f.SuggestionsOpen() {
		t.Fatal("the list did not open")
	}
	golden(t, "form_suggestions", f.Render(60, 12))
	press(t, f, "down", "up", "up")
	if a := press(t, f, "enter"); a != schemaform.ActionNone || f.SuggestionsOpen() {
		t.Fatalf("enter: %v, open %v", a, f.SuggestionsOpen())
	}
	wantValue(t, f, `{"department":"Support"}`)

	press(t, f, "tab") // to name: the list stays closed
	f.Suggest("name", "", schemaform.Suggestions{Values: []string{"David", "Eve"}})
	press(t, f, "tab")
	wantValue(t, f, `{"department":"Support","name":"David"}`)

	f.Suggest("name", "David", schemaform.Suggestions{Values: []string{"David", "Dave"}})
	if a := press(t, f, "esc"); a != schemaform.ActionNone || f.SuggestionsOpen() {
		t.Fatalf("esc: %v, open %v", a, f.SuggestionsOpen())
	}
	if a := press(t, f, "esc"); a != schemaform.ActionCancel {
		t.Errorf("a second esc: %v, want cancel", a)
	}
}

// An answer for a text the field no longer holds, or for another field,
// is dropped; a list whose only value is the text stays closed; typing
// goes on while the list is open.
func TestSuggestionsStaleAndTyping(t *testing.T) {
	f := newForm(t, promptForm, schemaform.Options{})
	typeText(f, "Sa")
	if f.Suggest("department", "S", schemaform.Suggestions{Values: []string{"Sales"}}) || f.SuggestionsOpen() {
		t.Error("an answer for an older text was shown")
	}
	if f.Suggest("name", "Sa", schemaform.Suggestions{Values: []string{"Sam"}}) || f.SuggestionsOpen() {
		t.Error("an answer for another field was shown")
	}
	if !f.Suggest("department", "Sa", schemaform.Suggestions{Values: []string{"Sa"}}) || f.SuggestionsOpen() {
		t.Error("a list of the text alone opened")
	}
	f.Suggest("department", "Sa", schemaform.Suggestions{Values: []string{"Sales"}})
	typeText(f, "l")
	if _, text, _ := f.FocusedText(); text != "Sal" {
		t.Errorf("typing with the list open gave %q", text)
	}
	press(t, f, "shift+tab")
	if f.SuggestionsOpen() {
		t.Error("the list stayed open on another field")
	}
}

// Hostile suggestions: escape sequences and line breaks are shown
// escaped, a huge value is cut to the width, 10,000 values show a window
// of them, and an error or "more" with no values is one line.
func TestSuggestionsHostile(t *testing.T) {
	f := newForm(t, promptForm, schemaform.Options{})
	values := []string{"\x1b]0;PWNED\x07\x1b[2J", "two\nlines", strings.Repeat("y", 1<<20)}
	for i := range 10000 {
		values = append(values, fmt.Sprintf("v%d", i))
	}
	f.Suggest("department", "", schemaform.Suggestions{Values: values, More: "100 of 10000\x1b[2J"})
	for range 50 {
		press(t, f, "up")
	}
	view := f.Render(60, 20)
	for _, raw := range []string{"\x07", "\x1b]", "\x1b[2J", "two\nlines"} {
		if strings.Contains(view, raw) {
			t.Errorf("raw %q in the view:\n%s", raw, view)
		}
	}
	if n := strings.Count(view, "\n") + 1; n > 20 {
		t.Errorf("%d lines for a height of 20", n)
	}
	if !strings.Contains(view, "v9950") || !strings.Contains(view, "6 of 10003 shown") {
		t.Errorf("the window does not follow the choice:\n%s", view)
	}
	press(t, f, "enter")
	wantValue(t, f, `{"department":"v9950"}`)

	f.Suggest("department", "v9950", schemaform.Suggestions{Err: "completion/complete failed: boom\x1b[2J\nsecond line"})
	view = f.Render(60, 20)
	if !strings.Contains(view, "✗ completion/complete failed: boom") || strings.Contains(view, "\x1b[2J") || strings.Contains(view, "\nsecond line") {
		t.Errorf("the error line:\n%s", view)
	}
	press(t, f, "down") // no values: the arrows move between fields
	if name, _, _ := f.FocusedText(); name != "name" {
		t.Errorf("down with an error line open focused %q", name)
	}
	f.Suggest("name", "", schemaform.Suggestions{More: "the server has more"})
	if !strings.Contains(f.Render(60, 20), "the server has more") {
		t.Errorf("more with no values is not shown:\n%s", f.Render(60, 20))
	}
}
