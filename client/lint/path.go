package lint

import (
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// plainKey is a member name a JSON path writes after a dot.
var plainKey = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// keyMax is the most bytes of one member name a path quotes.
const keyMax = 200

// pathMax is about the most bytes of a path: a longer one keeps its head
// and its tail and drops the middle, marked "…", so a schema nested
// through long keys costs bounded bytes a node, and a finding stays
// readable.
const pathMax = 512

// member is the path of key under parent: parent.key, or parent["k y"]
// quoted and safe to print when the key is not a plain name.
func member(parent, key string) string {
	if plainKey.MatchString(key) && len(key) <= keyMax {
		return shortenPath(parent + "." + key)
	}
	return shortenPath(parent + "[" + termtext.QuoteMax(key, keyMax) + "]")
}

// index is the path of the i-th element under parent.
func index(parent string, i int) string {
	return shortenPath(parent + "[" + strconv.Itoa(i) + "]")
}

// shortenPath cuts the middle out of a path longer than pathMax, on
// character boundaries.
func shortenPath(p string) string {
	if len(p) <= pathMax {
		return p
	}
	const mark = "…"
	head := pathMax/2 - len(mark)
	for head > 0 && !utf8.RuneStart(p[head]) {
		head--
	}
	tail := len(p) - pathMax/2
	for tail < len(p) && !utf8.RuneStart(p[tail]) {
		tail++
	}
	return p[:head] + mark + p[tail:]
}
