// Package jsondiff compares two JSON values and names every difference by
// its path, as in $.result.tools[2].description. Paths the caller calls
// volatile (Pattern, with wildcards and descent) are skipped, and arrays
// of objects the caller names (tools by name, resources by uri) are
// matched by a member's value rather than by position. The comparison
// walks both values with a stack of its own, so a value nested as deep as
// encoding/json accepts costs time and memory in proportion to its size,
// never the goroutine's stack.
package jsondiff

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Segment is one step of a Path: an object member or an array element.
type Segment struct {
	Name    string // the member's name, when not IsIndex
	Index   int    // the element's position, when IsIndex
	IsIndex bool
	// Key, in an array matched by a member's value, is that value for the
	// element (a tool's name); Index is then its position in the new
	// value, or in the old one when it was removed.
	Key    string
	HasKey bool
}

// Member returns the segment of the object member name.
func Member(name string) Segment { return Segment{Name: name} }

// Element returns the segment of the array element at i.
func Element(i int) Segment { return Segment{Index: i, IsIndex: true} }

// Path is where a value sits inside a document, from its root.
type Path []Segment

// String renders the path: $ for the root, .name for a member whose name
// is a bare name (see Pattern), ["name"] for any other member (quoted as
// in Go and JSON), [N] for an element.
func (p Path) String() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, s := range p {
		s.appendTo(&b)
	}
	return b.String()
}

func (s Segment) appendTo(b *strings.Builder) {
	switch {
	case s.IsIndex:
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(s.Index))
		b.WriteByte(']')
	case bareName(s.Name):
		b.WriteByte('.')
		b.WriteString(s.Name)
	default:
		b.WriteByte('[')
		b.WriteString(strconv.Quote(s.Name))
		b.WriteByte(']')
	}
}

// bareName reports whether name can follow a dot in a path: not empty and
// made of characters the path syntax gives no meaning to, every one
// printable.
func bareName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !bareRune(r) {
			return false
		}
	}
	return true
}

// bareRune reports whether r may stand in a bare name.
func bareRune(r rune) bool {
	switch r {
	case '.', '[', ']', '*', '\'', '"', '\\', utf8.RuneError:
		return false
	}
	return strconv.IsPrint(r) && r != ' '
}
