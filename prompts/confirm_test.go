package prompts_test

import (
	"testing"

	"github.com/mcpscope/mcpscope/prompts"
)

// y and n answer at once; ←/→ switch; enter answers what is selected;
// the default is the prompt's, else no.
func TestConfirm(t *testing.T) {
	w := newWidget(t, `{"type":"confirm","message":"Book it?","defaultValue":true}`, testOptions())
	wantValue(t, w, `true`)
	press(t, w, "right")
	wantValue(t, w, `false`)
	press(t, w, "left")
	wantValue(t, w, `true`)
	if a := press(t, w, "n"); a != prompts.ActionSubmit {
		t.Errorf("n = %v, want submit", a)
	}
	wantValue(t, w, `false`)
	if a := press(t, w, "y"); a != prompts.ActionSubmit {
		t.Errorf("y = %v, want submit", a)
	}
	wantValue(t, w, `true`)

	w = newWidget(t, `{"type":"confirm","message":"Sure?"}`, testOptions())
	wantValue(t, w, `false`)
	press(t, w, "tab")
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Errorf("enter = %v, want submit", a)
	}
	wantValue(t, w, `true`)
	if a := press(t, w, "esc"); a != prompts.ActionCancel {
		t.Errorf("esc = %v, want cancel", a)
	}
}
