// Package plural words a count so that singular and plural agree with it:
// "1 frame", "2 frames", "0 frames". It is a thin layer over
// github.com/dustin/go-humanize/english that accepts any integer type.
package plural

import (
	"strconv"

	"github.com/dustin/go-humanize/english"
)

// Word is one when n is 1 and many otherwise; an empty many is formed from
// one by English rules ("match" → "matches").
func Word[N ~int | ~int64 | ~uint64 | ~uint32 | ~int32](n N, one, many string) string {
	if n == 1 {
		return english.PluralWord(1, one, many)
	}
	return english.PluralWord(2, one, many)
}

// Count is n followed by the word that agrees with it: Count(1, "match",
// "matches") is "1 match", Count(3, …) "3 matches". The number is written
// plain ("1234 frames"), never grouped as english.Plural groups it.
func Count[N ~int | ~int64 | ~uint64 | ~uint32 | ~int32](n N, one, many string) string {
	var s string
	if n < 0 {
		s = strconv.FormatInt(int64(n), 10)
	} else {
		s = strconv.FormatUint(uint64(n), 10)
	}
	return s + " " + Word(n, one, many)
}
