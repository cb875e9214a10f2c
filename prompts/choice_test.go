package prompts_test

import (
	"testing"

	"github.com/mcpscope/mcpscope/prompts"
)

const classPrompt = `{"type":"choice","message":"Class?","choices":[
	{"value":"economy","label":"Economy","description":"the cheapest seat"},
	{"value":"premium","label":"Premium"},
	{"value":{"tier":3},"label":"Business"}],"defaultValue":"premium"}`

// ↑/↓ move the cursor (wrapping around), and the answer is the value of
// the option under it, whatever its JSON type.
func TestChoiceSingle(t *testing.T) {
	w := newWidget(t, classPrompt, testOptions())
	wantValue(t, w, `"premium"`)
	press(t, w, "down")
	wantValue(t, w, `{"tier":3}`)
	press(t, w, "down")
	wantValue(t, w, `"economy"`)
	press(t, w, "up")
	wantValue(t, w, `{"tier":3}`)
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Errorf("enter = %v, want submit", a)
	}
	w = newWidget(t, `{"type":"choice","message":"m","choices":[{"value":"a"},{"value":"b"}]}`, testOptions())
	wantValue(t, w, `"a"`)
	if a := press(t, w, "esc"); a != prompts.ActionCancel {
		t.Errorf("esc = %v, want cancel", a)
	}
}

// With Multiple, space selects and unselects; the answer is an array in
// the prompt's order; a required multi-select needs one option.
func TestChoiceMultiple(t *testing.T) {
	p := `{"type":"choice","message":"Extras?","multiple":true,"validation":{"required":true},
		"choices":[{"value":"bag"},{"value":"meal"},{"value":"seat"}],"defaultValue":["seat"]}`
	w := newWidget(t, p, testOptions())
	wantValue(t, w, `["seat"]`)
	press(t, w, "space")
	wantValue(t, w, `[]`)
	if err := w.Validate(); err == nil || err.Error() != "choose at least one option (space selects)" {
		t.Errorf("Validate = %v, want choose at least one option", err)
	}
	if a := press(t, w, "enter"); a != prompts.ActionNone {
		t.Errorf("enter with nothing selected = %v, want none", a)
	}
	press(t, w, "down", "space", "up", "up", "space")
	wantValue(t, w, `["bag","meal"]`)
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Errorf("enter = %v, want submit", a)
	}
	w = newWidget(t, `{"type":"choice","message":"m","multiple":true,"choices":[{"value":1},{"value":2}]}`, testOptions())
	if err := w.Validate(); err != nil {
		t.Errorf("optional multi-select: Validate = %v, want none", err)
	}
	wantValue(t, w, `[]`)
}
