package calendar

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The hints every parse error ends with, so that a message always says
// what to type instead.
const (
	dateHint     = "use YYYY-MM-DD"
	clockHint    = "use HH:MM or HH:MM:SS"
	offsetHint   = "use Z or ±HH:MM"
	dateTimeHint = "use YYYY-MM-DDTHH:MM:SS followed by Z or ±HH:MM"
)

// maxFraction bounds the digits of a fraction of a second.
const maxFraction = 9

// Clock is a time of day: hour, minute, second and the digits of a
// fraction of a second as typed (Fraction "5" is half a second).
type Clock struct {
	Hour, Minute, Second int
	Fraction             string
}

// String formats c as HH:MM:SS, with the fraction when there is one.
func (c Clock) String() string {
	s := fmt.Sprintf("%02d:%02d:%02d", c.Hour, c.Minute, c.Second)
	if c.Fraction != "" {
		s += "." + c.Fraction
	}
	return s
}

// DateTime is an RFC 3339 date-time: a day, a time of day, and the offset
// from UTC in seconds (east positive).
type DateTime struct {
	Date   Date
	Clock  Clock
	Offset int
}

// String formats dt in RFC 3339: YYYY-MM-DDTHH:MM:SS[.frac] then Z or
// ±HH:MM.
func (dt DateTime) String() string {
	return dt.Date.String() + "T" + dt.Clock.String() + FormatOffset(dt.Offset)
}

// ParseDate reads a full-date, YYYY-MM-DD. The error names what is wrong
// and says how to write a date.
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, errors.New("not a date: " + dateHint)
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	switch {
	case !ok1 || !ok2 || !ok3:
		return Date{}, errors.New("not a date: " + dateHint)
	case y < MinYear:
		return Date{}, fmt.Errorf("not a date: the year must be %04d to %04d", MinYear, MaxYear)
	case m < 1 || m > 12:
		return Date{}, errors.New("not a date: the month must be 01 to 12")
	case d < 1 || d > DaysIn(y, time.Month(m)):
		return Date{}, fmt.Errorf("not a date: %s %d has %d days", time.Month(m), y, DaysIn(y, time.Month(m)))
	}
	return Date{Year: y, Month: time.Month(m), Day: d}, nil
}

// ParseClock reads a time of day: HH:MM, HH:MM:SS or HH:MM:SS.frac.
func ParseClock(s string) (Clock, error) {
	bad := errors.New("not a time: " + clockHint)
	main, frac, hasFrac := strings.Cut(s, ".")
	if hasFrac && (len(main) != 8 || frac == "" || len(frac) > maxFraction) {
		return Clock{}, bad
	}
	if hasFrac {
		if _, ok := digits(frac); !ok {
			return Clock{}, bad
		}
	}
	if (len(main) != 5 && len(main) != 8) || main[2] != ':' || (len(main) == 8 && main[5] != ':') {
		return Clock{}, bad
	}
	h, ok1 := digits(main[0:2])
	m, ok2 := digits(main[3:5])
	sec, ok3 := 0, true
	if len(main) == 8 {
		sec, ok3 = digits(main[6:8])
	}
	switch {
	case !ok1 || !ok2 || !ok3:
		return Clock{}, bad
	case h > 23:
		return Clock{}, errors.New("not a time: the hour must be 00 to 23")
	case m > 59:
		return Clock{}, errors.New("not a time: the minutes must be 00 to 59")
	case sec > 59:
		return Clock{}, errors.New("not a time: the seconds must be 00 to 59")
	}
	return Clock{Hour: h, Minute: m, Second: sec, Fraction: frac}, nil
}

// ParseOffset reads an offset from UTC: Z (or z), or ±HH:MM (±HHMM and ±HH
// are accepted too). It returns seconds east of UTC.
func ParseOffset(s string) (int, error) {
	if s == "Z" || s == "z" {
		return 0, nil
	}
	bad := errors.New("not an offset: " + offsetHint)
	if len(s) < 3 || (s[0] != '+' && s[0] != '-') {
		return 0, bad
	}
	rest := s[1:]
	var hh, mm string
	switch {
	case len(rest) == 2:
		hh, mm = rest, "00"
	case len(rest) == 4:
		hh, mm = rest[:2], rest[2:]
	case len(rest) == 5 && rest[2] == ':':
		hh, mm = rest[:2], rest[3:]
	default:
		return 0, bad
	}
	h, ok1 := digits(hh)
	m, ok2 := digits(mm)
	switch {
	case !ok1 || !ok2:
		return 0, bad
	case h > 23 || m > 59:
		return 0, errors.New("not an offset: hours go up to 23 and minutes up to 59")
	}
	off := h*3600 + m*60
	if s[0] == '-' {
		off = -off
	}
	return off, nil
}

// FormatOffset writes seconds east of UTC as Z or ±HH:MM (seconds beyond
// the minute are dropped).
func FormatOffset(secs int) string {
	if secs == 0 {
		return "Z"
	}
	sign := '+'
	if secs < 0 {
		sign, secs = '-', -secs
	}
	return fmt.Sprintf("%c%02d:%02d", sign, secs/3600%100, secs/60%60)
}

// SplitDateTime cuts date-time text into its date, time and offset parts
// without checking them: "2026-05-01T10:30:00+02:00" gives "2026-05-01",
// "10:30:00" and "+02:00". ok is false when there is no T (or space)
// after the date.
func SplitDateTime(s string) (date, clock, offset string, ok bool) {
	if len(s) < 11 || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') {
		return "", "", "", false
	}
	date, rest := s[:10], s[11:]
	i := strings.IndexAny(rest, "Zz+-")
	if i < 0 {
		return date, rest, "", true
	}
	return date, rest[:i], rest[i:], true
}

// ParseDateTime reads an RFC 3339 date-time; the seconds may be left out
// (10:30Z reads as 10:30:00Z). The error says which part is wrong.
func ParseDateTime(s string) (DateTime, error) {
	date, clock, offset, ok := SplitDateTime(s)
	if !ok {
		return DateTime{}, errors.New("not a date-time: " + dateTimeHint)
	}
	d, err := ParseDate(date)
	if err != nil {
		return DateTime{}, err
	}
	c, err := ParseClock(clock)
	if err != nil {
		return DateTime{}, err
	}
	if offset == "" {
		return DateTime{}, errors.New("not a date-time: the offset is missing, " + offsetHint)
	}
	off, err := ParseOffset(offset)
	if err != nil {
		return DateTime{}, err
	}
	return DateTime{Date: d, Clock: c, Offset: off}, nil
}

// digits reads a string of ASCII digits as a number; ok is false for
// anything else, including the empty string and a sign.
func digits(s string) (n int, ok bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// DayOf is the day s names: a full-date, or the date of a date-time (its
// time unchecked); zero when s holds none.
func DayOf(s string) Date {
	s = strings.TrimSpace(s)
	if date, _, _, ok := SplitDateTime(s); ok {
		s = date
	}
	d, err := ParseDate(s)
	if err != nil {
		return Date{}
	}
	return d
}
