// Package plural words a count so that singular and plural agree with it:
// "1 frame", "2 frames", "0 frames". It is a thin layer over
// github.com/dustin/go-humanize/english that accepts any integer type.
package plural

import (
	"math"
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
// "matches") is "1 match", Count(3, …) "3 matches".
func Count[N ~int | ~int64 | ~uint64 | ~uint32 | ~int32](n N, one, many string) string {
	if n >= 0 && uint64(n) <= math.MaxInt {
		return english.Plural(int(n), one, many)
	}
	if n < 0 && int64(n) >= math.MinInt {
		return english.Plural(int(n), one, many)
	}
	return strconv.FormatUint(uint64(n), 10) + " " + Word(n, one, many)
}
