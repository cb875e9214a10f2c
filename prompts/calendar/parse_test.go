package calendar_test

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/prompts/calendar"
)

func TestParseDate(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"2026-05-14", "2026-05-14", ""},
		{"2024-02-29", "2024-02-29", ""},
		{"0001-01-01", "0001-01-01", ""},
		{"9999-12-31", "9999-12-31", ""},
		{"2026-02-29", "", "not a date: February 2026 has 28 days"},
		{"2026-04-31", "", "not a date: April 2026 has 30 days"},
		{"2026-00-10", "", "not a date: the month must be 01 to 12"},
		{"0000-01-01", "", "not a date: the year must be 0001 to 9999"},
		{"2026-5-14", "", "not a date: use YYYY-MM-DD"},
		{"2026/05/14", "", "not a date: use YYYY-MM-DD"},
		{"+026-05-14", "", "not a date: use YYYY-MM-DD"},
		{"", "", "not a date: use YYYY-MM-DD"},
	} {
		d, err := calendar.ParseDate(c.in)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("ParseDate(%q) error = %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || d.String() != c.want):
			t.Errorf("ParseDate(%q) = %v, %v; want %s", c.in, d, err, c.want)
		}
	}
}

func TestParseDateTime(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"2026-05-14T09:30:00Z", "2026-05-14T09:30:00Z", ""},
		{"2026-05-14t09:30z", "2026-05-14T09:30:00Z", ""},
		{"2026-05-14 09:30:05.125+02:00", "2026-05-14T09:30:05.125+02:00", ""},
		{"2026-05-14T09:30-0530", "2026-05-14T09:30:00-05:30", ""},
		{"2026-05-14T09:30+01", "2026-05-14T09:30:00+01:00", ""},
		{"2026-05-14", "", "not a date-time: use YYYY-MM-DDTHH:MM:SS followed by Z or ±HH:MM"},
		{"2026-05-14T09:30", "", "not a date-time: the offset is missing, use Z or ±HH:MM"},
		{"2026-05-14T24:00Z", "", "not a time: the hour must be 00 to 23"},
		{"2026-05-14T23:60Z", "", "not a time: the minutes must be 00 to 59"},
		{"2026-05-14T23:59:60Z", "", "not a time: the seconds must be 00 to 59"},
		{"2026-05-14T9:30Z", "", "not a time: use HH:MM or HH:MM:SS"},
		{"2026-05-14T09:30:00.Z", "", "not a time: use HH:MM or HH:MM:SS"},
		{"2026-05-14T09:30+1", "", "not an offset: use Z or ±HH:MM"},
		{"2026-05-14T09:30+12:75", "", "not an offset: hours go up to 23 and minutes up to 59"},
	} {
		dt, err := calendar.ParseDateTime(c.in)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("ParseDateTime(%q) error = %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || dt.String() != c.want):
			t.Errorf("ParseDateTime(%q) = %v, %v; want %s", c.in, dt, err, c.want)
		}
	}
}

// Months keep the day when they can and cut it to the month's length when
// they cannot; days and months stay within 0001…9999.
func TestDateArithmetic(t *testing.T) {
	d := func(s string) calendar.Date {
		v, err := calendar.ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		got  calendar.Date
		want string
	}{
		{d("2026-01-31").AddMonths(1), "2026-02-28"},
		{d("2024-03-31").AddMonths(-1), "2024-02-29"},
		{d("2026-12-15").AddMonths(1), "2027-01-15"},
		{d("2026-01-15").AddMonths(-13), "2024-12-15"},
		{d("2026-12-31").AddDays(1), "2027-01-01"},
		{d("2026-03-01").AddDays(-1), "2026-02-28"},
		{d("0001-01-01").AddDays(-1), "0001-01-01"},
		{d("9999-12-31").AddDays(7), "9999-12-31"},
		{d("9999-12-31").AddMonths(1), "9999-12-31"},
		{d("0001-01-31").AddMonths(-1), "0001-01-01"},
		{d("2026-05-14").AddMonths(1 << 40), "9999-12-31"},
		{d("2026-05-14").AddDays(-1 << 40), "0001-01-01"},
	} {
		if c.got.String() != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	if calendar.FormatOffset(-(5*3600+30*60)) != "-05:30" || calendar.FormatOffset(0) != "Z" {
		t.Errorf("FormatOffset is wrong")
	}
}

// FuzzParseDateTime checks the parsers against package time: what they
// accept time accepts too, with the same instant, and what they write
// reads back the same.
func FuzzParseDateTime(f *testing.F) {
	for _, s := range []string{"2026-05-14T09:30:00Z", "2024-02-29t23:59:59.999999999-23:59", "2026-05-14 09:30+01",
		"0001-01-01T00:00Z", "9999-12-31T23:59:59.5+00:00", "2026-02-30T10:00Z", "2026-05-14", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := calendar.ParseDate(s); err == nil {
			if _, terr := time.Parse(time.DateOnly, s); terr != nil {
				t.Fatalf("ParseDate(%q) = %v, but time.Parse says %v", s, d, terr)
			}
			if d.String() != s {
				t.Fatalf("ParseDate(%q).String() = %q", s, d)
			}
		}
		dt, err := calendar.ParseDateTime(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		out := dt.String()
		tm, terr := time.Parse(time.RFC3339Nano, out)
		if terr != nil {
			t.Fatalf("ParseDateTime(%q) wrote %q, which time.Parse refuses: %v", s, out, terr)
		}
		again, err := calendar.ParseDateTime(out)
		if err != nil || again != dt {
			t.Fatalf("%q does not read back: %v, %v", out, again, err)
		}
		_, off := tm.Zone()
		if off != dt.Offset || calendar.DateOf(tm) != dt.Date || tm.Hour() != dt.Clock.Hour {
			t.Fatalf("%q: time reads %v, we read %+v", out, tm, dt)
		}
	})
}
