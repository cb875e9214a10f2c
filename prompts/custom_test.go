package prompts_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts"
)

const customPrompt = `{"type":"custom","message":"Seat map","schema":{"type":"object",
	"properties":{"row":{"type":"integer","minimum":1},"seat":{"type":"string","pattern":"^[A-F]$"}},"required":["row","seat"]},
	"defaultValue":{"row":12}}`

// The JSON editor starts on the default; ctrl+s answers only JSON that
// matches the schema, naming the problem by its JSON pointer.
func TestCustomEditor(t *testing.T) {
	w := newWidget(t, customPrompt, testOptions())
	wantValue(t, w, `{"row":12}`)
	if a := press(t, w, "ctrl+s"); a != prompts.ActionNone {
		t.Fatalf("ctrl+s without seat = %v, want none", a)
	}
	if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "seat") {
		t.Errorf("Validate = %v, want the missing seat named", err)
	}
	if out := goldentest.Plain(w.Render(60, 12)); !strings.Contains(out, "✗") {
		t.Errorf("render does not show the problem:\n%s", out)
	}
	w = newWidget(t, `{"type":"custom","message":"m","schema":{"type":"object","required":["a"]}}`, testOptions())
	press(t, w, "delete", "delete") // empties {}
	typeText(w, `{"a": [1, 2]}`)
	wantValue(t, w, `{"a":[1,2]}`)
	if a := press(t, w, "enter"); a != prompts.ActionNone {
		t.Errorf("enter = %v, want a new line, not an answer", a)
	}
	if a := press(t, w, "ctrl+s"); a != prompts.ActionSubmit {
		t.Errorf("ctrl+s = %v (%v), want submit", a, w.Validate())
	}
	if a := press(t, w, "esc"); a != prompts.ActionCancel {
		t.Errorf("esc = %v, want cancel", a)
	}
}

// Text that is not JSON says where it stops being JSON.
func TestCustomNotJSON(t *testing.T) {
	w := newWidget(t, `{"type":"custom","message":"m"}`, testOptions())
	typeText(w, "x")
	if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "line 1, column 1") {
		t.Errorf("Validate = %v, want the position", err)
	}
	w = newWidget(t, `{"type":"custom","message":"m","schema":{"type":"object","required":["a"]}}`, testOptions())
	if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "required") {
		t.Errorf("Validate of {} = %v, want a missing property", err)
	}
}
