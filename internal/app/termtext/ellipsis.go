package termtext

import "unicode/utf8"

// Ellipsis cuts s to at most n runes, marking the cut with "…". It reads
// no further than the cut, however long s is, and does not sanitize.
func Ellipsis(s string, n int) string {
	runes := 0
	for i := range s {
		if runes == n-1 {
			if _, size := utf8.DecodeRuneInString(s[i:]); i+size < len(s) {
				return s[:i] + "…" // more than one rune is left
			}
			return s
		}
		runes++
	}
	return s
}
