package lint

import (
	"regexp"
	"strconv"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// plainKey is a member name a JSON path writes after a dot.
var plainKey = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// keyMax is the most bytes of one member name a path quotes.
const keyMax = 200

// member is the path of key under parent: parent.key, or parent["k y"]
// quoted and safe to print when the key is not a plain name.
func member(parent, key string) string {
	if plainKey.MatchString(key) && len(key) <= keyMax {
		return parent + "." + key
	}
	return parent + "[" + termtext.QuoteMax(key, keyMax) + "]"
}

// index is the path of the i-th element under parent.
func index(parent string, i int) string {
	return parent + "[" + strconv.Itoa(i) + "]"
}
