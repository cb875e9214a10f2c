// Package plural words a count so that singular and plural agree with it:
// "1 frame", "2 frames", "0 frames".
package plural

import "strconv"

// Word is one when n is 1 and many otherwise.
func Word[N ~int | ~int64 | ~uint64 | ~uint32 | ~int32](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n followed by the word that agrees with it: Count(1, "match",
// "matches") is "1 match", Count(3, …) "3 matches".
func Count[N ~int | ~int64 | ~uint64 | ~uint32 | ~int32](n N, one, many string) string {
	var s string
	if n < 0 {
		s = strconv.FormatInt(int64(n), 10)
	} else {
		s = strconv.FormatUint(uint64(n), 10)
	}
	return s + " " + Word(n, one, many)
}
