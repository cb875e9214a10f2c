package prompts_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/prompts"
)

// A typed date is the answer; enter answers, esc cancels.
func TestDateTyped(t *testing.T) {
	w := newWidget(t, `{"type":"date","message":"Date?","validation":{"required":true}}`, testOptions())
	typeText(w, "2026-06-02")
	wantValue(t, w, `"2026-06-02"`)
	if a := press(t, w, "enter"); a != prompts.ActionSubmit {
		t.Errorf("enter = %v, want submit", a)
	}
	if a := press(t, w, "esc"); a != prompts.ActionCancel {
		t.Errorf("esc = %v, want cancel", a)
	}
}

// ←/→ move a day, ↑/↓ a week, pgup/pgdown a month; the first move from
// nothing picks today; typing moves the calendar to the date typed.
func TestDateCalendarKeys(t *testing.T) {
	w := newWidget(t, `{"type":"date","message":"Date?"}`, testOptions())
	for _, step := range []struct{ key, want string }{
		{"right", `"2026-05-14"`}, // today, Thursday
		{"right", `"2026-05-15"`},
		{"down", `"2026-05-22"`},
		{"up", `"2026-05-15"`},
		{"up", `"2026-05-08"`},
		{"pgdown", `"2026-06-08"`},
		{"pgup", `"2026-05-08"`},
		{"pgup", `"2026-04-08"`},
		{"left", `"2026-04-07"`},
	} {
		press(t, w, step.key)
		if got := value(t, w); got != step.want {
			t.Fatalf("after %s: Value = %s, want %s", step.key, got, step.want)
		}
	}
	for _, c := range []struct{ from, key, want string }{
		{"2026-01-31", "pgdown", `"2026-02-28"`},
		{"2028-01-31", "pgdown", `"2028-02-29"`},
		{"2026-03-31", "pgup", `"2026-02-28"`},
		{"2026-12-31", "right", `"2027-01-01"`},
		{"2027-01-03", "up", `"2026-12-27"`},
	} {
		w := newWidget(t, `{"type":"date","message":"Date?","defaultValue":"`+c.from+`"}`, testOptions())
		press(t, w, c.key)
		if got := value(t, w); got != c.want {
			t.Errorf("%s %s: Value = %s, want %s", c.from, c.key, got, c.want)
		}
	}
	w = newWidget(t, `{"type":"date","message":"Date?"}`, testOptions())
	typeText(w, "2026-02-10")
	press(t, w, "right")
	wantValue(t, w, `"2026-02-11"`)
}

// Text that is not a date is refused, saying what is wrong; an optional
// empty date is null.
func TestDateValidation(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"tomorrow", "not a date: use YYYY-MM-DD"},
		{"2026-5-1", "not a date: use YYYY-MM-DD"},
		{"2026-13-01", "not a date: the month must be 01 to 12"},
		{"2026-02-30", "not a date: February 2026 has 28 days"},
		{"0000-01-01", "not a date: the year must be 0001 to 9999"},
	} {
		w := newWidget(t, `{"type":"date","message":"Date?"}`, testOptions())
		typeText(w, c.text)
		if err := w.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("%q: Validate = %v, want %q", c.text, err, c.want)
		}
		if a := press(t, w, "enter"); a != prompts.ActionNone {
			t.Errorf("%q: enter = %v, want none", c.text, a)
		}
	}
	w := newWidget(t, `{"type":"date","message":"Date?","validation":{"required":true}}`, testOptions())
	if err := w.Validate(); err == nil || err.Error() != "an answer is required" {
		t.Errorf("required: Validate = %v", err)
	}
	w = newWidget(t, `{"type":"date","message":"Date?"}`, testOptions())
	wantValue(t, w, `null`)
}

// A date-time is typed in one go (T after the date, Z/+/- after the time
// move on), or part by part with tab; the value is RFC 3339 with seconds.
func TestDateTime(t *testing.T) {
	const p = `{"type":"date","message":"When?","format":"date-time"}`
	for _, c := range []struct{ text, want string }{
		{"2026-05-01T10:30Z", `"2026-05-01T10:30:00Z"`},
		{"2026-05-01 10:30:15+02:00", `"2026-05-01T10:30:15+02:00"`},
		{"2026-05-01t23:59:59.5-0530", `"2026-05-01T23:59:59.5-05:30"`},
	} {
		w := newWidget(t, p, testOptions())
		typeText(w, c.text)
		if got := value(t, w); got != c.want {
			t.Errorf("%q: Value = %s, want %s", c.text, got, c.want)
		}
	}
	// Part by part; no offset typed takes the clock's own offset.
	opts := testOptions()
	opts.Now = func() time.Time { return testNow.In(time.FixedZone("CEST", 2*3600)) }
	w := newWidget(t, p, opts)
	press(t, w, "right")
	press(t, w, "tab")
	typeText(w, "08:05")
	wantValue(t, w, `"2026-05-14T08:05:00+02:00"`)
	press(t, w, "tab")
	typeText(w, "Z")
	wantValue(t, w, `"2026-05-14T08:05:00Z"`)
	// Backspace on an empty part goes back to the one before.
	for range 1 + 1 + len("08:05") + 1 + 1 { // Z, back, the time, back, a digit
		press(t, w, "backspace")
	}
	typeText(w, "7")
	press(t, w, "tab")
	typeText(w, "09:00")
	wantValue(t, w, `"2026-05-17T09:00:00+02:00"`)
}

// Each part of a date-time has its message.
func TestDateTimeValidation(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"2026-05-01", "not a time: the time is missing, use HH:MM or HH:MM:SS"},
		{"2026-05-01T25:00", "not a time: the hour must be 00 to 23"},
		{"2026-05-01T10:3", "not a time: use HH:MM or HH:MM:SS"},
		{"2026-05-01T10:30+2", "not an offset: use Z or ±HH:MM"},
		{"2026-05-01T10:30+24:00", "not an offset: hours go up to 23 and minutes up to 59"},
		{"2026-02-29T10:30Z", "not a date: February 2026 has 28 days"},
	} {
		w := newWidget(t, `{"type":"date","message":"When?","format":"date-time"}`, testOptions())
		typeText(w, c.text)
		if err := w.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("%q: Validate = %v, want %q", c.text, err, c.want)
		}
	}
	w := newWidget(t, `{"type":"date","message":"When?","format":"date-time","defaultValue":"2026-05-01T10:30:00.25+02:00"}`, testOptions())
	wantValue(t, w, `"2026-05-01T10:30:00.25+02:00"`)
}

// A date prompt whose placeholder is a date (the first day the server
// takes, say) opens its calendar there: the first move picks that day,
// not today, which the server would refuse.
func TestDateStartsOnTheExampleDate(t *testing.T) {
	for _, c := range []struct{ prompt, want string }{
		{`{"type":"date","message":"When?","placeholder":"2026-05-15"}`, `"2026-05-15"`},
		{`{"type":"date","message":"When?","placeholder":"2026-06-01T09:00:00Z","format":"date-time"}`, ""},
		{`{"type":"date","message":"When?","placeholder":"tomorrow"}`, `"2026-05-14"`},
		{`{"type":"date","message":"When?","placeholder":"2026-05-15","defaultValue":"2026-07-01"}`, `"2026-07-02"`},
	} {
		w := newWidget(t, c.prompt, testOptions())
		press(t, w, "right")
		if c.want == "" { // a date-time needs its time: the date typed is the example's
			if s := w.Render(80, 20); !strings.Contains(s, "2026-06-01") {
				t.Errorf("%s: the calendar did not open on the example's day:\n%s", c.prompt, s)
			}
			continue
		}
		if got := value(t, w); got != c.want {
			t.Errorf("%s: the first → gives %s, want %s", c.prompt, got, c.want)
		}
	}
}
