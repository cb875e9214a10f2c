package schemaform_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

const dateSchema = `{"type":"object","properties":{
	"day":{"type":"string","format":"date"},
	"at":{"type":"string","format":"date-time"}}}`

// calendarKeys are the keys of a date field that the shared table lacks.
var calendarKeys = map[string]tea.KeyPressMsg{
	"pgup":       {Code: tea.KeyPgUp},
	"pgdown":     {Code: tea.KeyPgDown},
	"shift+up":   {Code: tea.KeyUp, Mod: tea.ModShift},
	"shift+down": {Code: tea.KeyDown, Mod: tea.ModShift},
}

// A date field takes typed dates and calendar moves: ←/→ a day, shift+↑/↓
// a week, pgup/pgdown a month; the first move picks today. The tests'
// clock is 2026-05-14.
func TestDateFieldCalendar(t *testing.T) {
	f := newForm(t, dateSchema, schemaform.Options{})
	press(t, f, "right")
	wantValue(t, f, `{"day":"2026-05-14"}`)
	press(t, f, "right")
	wantValue(t, f, `{"day":"2026-05-15"}`)
	for _, step := range []struct{ key, want string }{
		{"shift+down", `{"day":"2026-05-22"}`},
		{"pgdown", `{"day":"2026-06-22"}`},
		{"shift+up", `{"day":"2026-06-15"}`},
		{"pgup", `{"day":"2026-05-15"}`},
	} {
		f.Update(calendarKeys[step.key])
		wantValue(t, f, step.want)
	}
	f = newForm(t, dateSchema, schemaform.Options{})
	typeText(f, "2026-01-31")
	f.Update(calendarKeys["pgdown"])
	wantValue(t, f, `{"day":"2026-02-28"}`)
}

// A date field whose schema gives a formatMinimum opens its calendar on
// that day, and a default on the default: the first move picks a day the
// schema takes, not today.
func TestDateFieldStartsOnItsFirstDay(t *testing.T) {
	f := newForm(t, `{"type":"object","properties":{"day":{"type":"string","format":"date","formatMinimum":"2026-06-01"}}}`, schemaform.Options{})
	press(t, f, "right")
	wantValue(t, f, `{"day":"2026-06-01"}`)
	f = newForm(t, `{"type":"object","properties":{"day":{"type":"string","format":"date","default":"2026-07-04"}}}`, schemaform.Options{})
	press(t, f, "right")
	wantValue(t, f, `{"day":"2026-07-05"}`)
}

// A date-time field is typed in one go and sent in RFC 3339.
func TestDateTimeField(t *testing.T) {
	f := newForm(t, dateSchema, schemaform.Options{Defaults: []byte(`{"at":"2026-05-01T10:30:00+02:00"}`)})
	wantValue(t, f, `{"at":"2026-05-01T10:30:00+02:00"}`)
	f = newForm(t, dateSchema, schemaform.Options{})
	press(t, f, "tab")
	typeText(f, "2026-05-01T10:30Z")
	wantValue(t, f, `{"at":"2026-05-01T10:30:00Z"}`)
	// The form's JSON editor and back keep the value.
	press(t, f, "ctrl+e", "ctrl+e")
	if f.EditingJSON() {
		t.Fatalf("the form did not come back from the JSON editor")
	}
	wantValue(t, f, `{"at":"2026-05-01T10:30:00Z"}`)
}

// Text that is not a date is refused at its field with the parser's
// message.
func TestDateFieldRefusesText(t *testing.T) {
	f := newForm(t, dateSchema, schemaform.Options{})
	typeText(f, "2026-02-30")
	if errs := f.Validate(); !hasError(errs, "/day", "not a date: February 2026 has 28 days") {
		t.Errorf("Validate = %v, want /day: not a date", errs)
	}
	f = newForm(t, dateSchema, schemaform.Options{})
	press(t, f, "tab")
	typeText(f, "2026-05-01")
	if errs := f.Validate(); !hasError(errs, "/at", "the time is missing") {
		t.Errorf("Validate = %v, want /at: the time is missing", errs)
	}
}

// The calendar shows under the focused date field only.
func TestGoldenDateField(t *testing.T) {
	f := newForm(t, dateSchema, schemaform.Options{Title: "tools/call plan"})
	press(t, f, "right", "right")
	out := f.Render(60, 20)
	if strings.Count(goldentest.Plain(out), "May 2026") != 1 {
		t.Errorf("want one calendar, for the focused field:\n%s", goldentest.Plain(out))
	}
	golden(t, "date_field", out)
}
