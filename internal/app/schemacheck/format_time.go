package schemacheck

import (
	"errors"
	"regexp/syntax"
	"strings"
)

// digits reads a run of exactly n ASCII digits as a number.
func digits(s string, n int) (int, bool) {
	if len(s) != n {
		return 0, false
	}
	v := 0
	for i := range n {
		if !isDigit(s[i]) {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

// isDate checks an RFC 3339 full-date: 2026-02-28.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digits(s[:4], 4)
	m, ok2 := digits(s[5:7], 2)
	d, ok3 := digits(s[8:], 2)
	return ok1 && ok2 && ok3 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)
}

// daysIn is the number of days of a month of the Gregorian calendar.
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// isTime checks an RFC 3339 full-time: 23:59:60.5+01:00. A leap second is
// allowed only at 23:59 UTC.
func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digits(s[:2], 2)
	m, ok2 := digits(s[3:5], 2)
	sec, ok3 := digits(s[6:8], 2)
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if strings.HasPrefix(rest, ".") {
		n := skipDigits(rest, 1)
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	offset := 0
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3], 2)
		om, ok2 := digits(rest[4:], 2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		offset = oh*60 + om
		if rest[0] == '+' {
			offset = -offset
		}
	default:
		return false
	}
	if sec == 60 {
		utc := ((h*60+m+offset)%1440 + 1440) % 1440
		return utc == 23*60+59
	}
	return true
}

// isDateTime checks an RFC 3339 date-time.
func isDateTime(s string) bool {
	return len(s) > 11 && (s[10] == 'T' || s[10] == 't') && isDate(s[:10]) && isTime(s[11:])
}

// isDuration checks an ISO 8601 duration as RFC 3339 appendix A writes it:
// P1Y2M3DT4H5M6S, PT1M, P2W; units in order, each at most once.
func isDuration(s string) bool {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return false
	}
	if n := skipDigits(rest, 0); n > 0 && rest[n:] == "W" {
		return true
	}
	date, clock, hasT := strings.Cut(rest, "T")
	if hasT && clock == "" {
		return false
	}
	return durationUnits(date, "YMD") && durationUnits(clock, "HMS")
}

// durationUnits checks a run of number-and-unit pairs whose units appear
// in the order of units.
func durationUnits(s, units string) bool {
	last := -1
	for s != "" {
		n := skipDigits(s, 0)
		if n == 0 || n == len(s) {
			return false
		}
		u := strings.IndexByte(units, s[n])
		if u <= last {
			return false
		}
		last, s = u, s[n+1:]
	}
	return true
}

// isUUID checks the RFC 4122 text form: 8-4-4-4-12 hexadecimal digits.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range len(s) {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isRegex checks a regular expression. Patterns are ECMAScript's, which
// Go's regexp reads only in part: a pattern is refused only for errors of
// structure (unbalanced brackets, a repeat of nothing), not for the
// ECMAScript features Go lacks.
func isRegex(s string) bool {
	_, err := syntax.Parse(s, syntax.Perl)
	var se *syntax.Error
	if err == nil || !errors.As(err, &se) {
		return err == nil
	}
	switch se.Code {
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen, syntax.ErrMissingBracket,
		syntax.ErrTrailingBackslash, syntax.ErrMissingRepeatArgument, syntax.ErrInvalidCharRange:
		return false
	}
	return true
}

// skipDigits returns the index of the first byte at or after i in s that
// is not an ASCII digit.
func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
