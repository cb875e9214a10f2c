// Package calendar is the core of mcpscope's date input: a civil Date with
// the arithmetic a calendar needs, strict parsers for the RFC 3339 pieces
// (full-date YYYY-MM-DD, partial-time HH:MM[:SS[.frac]], offset Z or
// ±HH:MM), a month grid, and a Picker that combines typed text with
// calendar navigation.
//
// It is a leaf: it imports neither the interactive prompts nor the schema
// form, so both can use it (package prompts for date prompts, package
// prompts/schemaform for string fields with format "date" or "date-time").
package calendar

import (
	"fmt"
	"time"
)

// Bounds of the years a Date holds: RFC 3339 years have four digits.
const (
	MinYear = 1
	MaxYear = 9999
)

// Date is a day of the proleptic Gregorian calendar, without a time of day
// or a zone. The zero Date is not a valid day (see IsZero).
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the day t falls on, in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return clampDate(Date{Year: y, Month: m, Day: d})
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// String formats d as YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// Time returns midnight UTC of d.
func (d Date) Time() time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday { return d.Time().Weekday() }

// AddDays returns d moved by n days (backwards for negative n), kept
// within 0001-01-01 and 9999-12-31.
func (d Date) AddDays(n int) Date {
	const maxSpan = 3_700_000 // more days than 0001…9999 holds
	n = max(-maxSpan, min(maxSpan, n))
	return DateOf(d.Time().AddDate(0, 0, n))
}

// AddMonths returns d moved by n months; the day is cut to the length of
// the month reached (31 January + 1 month is 28 or 29 February).
func (d Date) AddMonths(n int) Date {
	const maxSpan = 12 * MaxYear
	n = max(-maxSpan, min(maxSpan, n))
	months := d.Year*12 + int(d.Month) - 1 + n
	y, m := months/12, time.Month(months%12+1)
	if months < 0 {
		y, m = MinYear, time.January
	}
	out := Date{Year: y, Month: m, Day: min(d.Day, DaysIn(y, m))}
	return clampDate(out)
}

// Before reports whether d is an earlier day than e.
func (d Date) Before(e Date) bool {
	if d.Year != e.Year {
		return d.Year < e.Year
	}
	if d.Month != e.Month {
		return d.Month < e.Month
	}
	return d.Day < e.Day
}

// DaysIn returns the number of days of month m of year y.
func DaysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// clampDate keeps d within the years RFC 3339 can write.
func clampDate(d Date) Date {
	switch {
	case d.Year < MinYear:
		return Date{Year: MinYear, Month: time.January, Day: 1}
	case d.Year > MaxYear:
		return Date{Year: MaxYear, Month: time.December, Day: 31}
	}
	return d
}
