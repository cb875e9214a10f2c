package lint

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// plainKey is a member name a JSON path writes after a dot.
var plainKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`) }) // compiled on first use

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
	if plainKey().MatchString(key) && len(key) <= keyMax {
		return joinPath(parent, ".", key, "")
	}
	return joinPath(parent, "[", termtext.QuoteMax(key, keyMax), "]")
}

// index is the path of the i-th element under parent.
func index(parent string, i int) string {
	return joinPath(parent, "[", strconv.Itoa(i), "]")
}

// joinPath is the parts of a path joined, its middle cut out when it
// is longer than pathMax (on character boundaries): the head of parent,
// "…", and the last pathMax/2 bytes. It allocates the result alone.
func joinPath(parent, open, key, closing string) string {
	n := len(parent) + len(open) + len(key) + len(closing)
	if n <= pathMax {
		return parent + open + key + closing
	}
	const mark = "…"
	head := min(pathMax/2-len(mark), len(parent))
	for head > 0 && !utf8.RuneStart(parent[head]) {
		head--
	}
	rest := open + key + closing
	tail := max(pathMax/2-len(rest), 0) // the bytes of parent the tail keeps
	cut := len(parent) - tail
	for cut < len(parent) && !utf8.RuneStart(parent[cut]) {
		cut++
	}
	var b strings.Builder
	b.Grow(head + len(mark) + len(parent) - cut + len(rest))
	b.WriteString(parent[:head])
	b.WriteString(mark)
	b.WriteString(parent[cut:])
	b.WriteString(rest)
	return b.String()
}
