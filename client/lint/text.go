package lint

import (
	"strings"
	"unicode"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// quoteMax is the most bytes of server text a message quotes.
const quoteMax = 120

// quote renders server text for a message: quoted, safe, short.
func quote(s string) string { return termtext.QuoteMax(s, quoteMax) }

// words are the lower-cased words of s (runs of letters and digits).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// normalized is s with its white space folded and its case lowered, so
// descriptions that differ only there compare equal.
func normalized(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
