// Package jsonindent indents JSON for a reader with a bounded cost: the
// indentation stops growing past a depth limit and deeper values are
// written compactly, so the output stays proportional to the input however
// deep a server nests its values. encoding/json's Indent writes two spaces
// per level on every line, so a 20 KB value nested 10,000 deep becomes
// 200 MB; here it stays about 20 KB.
package jsonindent

import (
	"bytes"
	"encoding/json"
	"errors"
)

// DefaultMaxDepth is the deepest level that gets its own lines and
// indentation; values nested deeper are written compactly on the line of
// the container they sit in.
const DefaultMaxDepth = 32

// indentUnit is the indentation of one level.
const indentUnit = "  "

// Indent returns src indented by two spaces per level down to maxDepth
// levels (maxDepth ≤ 0 takes DefaultMaxDepth); containers deeper than that
// are written without whitespace. Key order, number spelling and string
// escapes are kept as they were; up to maxDepth the output is the same as
// encoding/json's Indent with no prefix and a two-space indent. Invalid
// JSON gets encoding/json's error. The output
// is at most about (2 + 2×maxDepth) times the size of src, and for a value
// deeper than maxDepth it is src's compact size plus the indentation of the
// first maxDepth levels.
func Indent(src []byte, maxDepth int) ([]byte, error) {
	if !json.Valid(src) {
		var b bytes.Buffer
		if err := json.Compact(&b, src); err != nil {
			return nil, err // encoding/json's *SyntaxError says where
		}
		return nil, errors.New("invalid JSON")
	}
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	w := writer{out: make([]byte, 0, len(src)+len(src)/4), max: maxDepth}
	w.value(src)
	return w.out, nil
}

// writer indents one valid JSON text.
type writer struct {
	out     []byte
	max     int  // deepest indented level
	depth   int  // containers open
	opened  bool // a container was just opened: its first element starts a line
	pending bool // the next token starts a new line (after an opening or a comma)
}

// value writes src, which json.Valid accepted.
func (w *writer) value(src []byte) {
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r':
		case '{', '[':
			w.startToken()
			w.out = append(w.out, c)
			w.depth++
			w.opened, w.pending = true, w.depth <= w.max
		case '}', ']':
			if w.opened { // empty container: {} and [] stay on one line
				w.opened, w.pending = false, false
			} else if w.depth <= w.max {
				w.newline(w.depth - 1)
			}
			w.depth--
			w.out = append(w.out, c)
		case ',':
			w.out = append(w.out, ',')
			w.pending = w.depth <= w.max
		case ':':
			w.out = append(w.out, ':')
			if w.depth <= w.max {
				w.out = append(w.out, ' ')
			}
		case '"':
			w.startToken()
			end := stringEnd(src, i)
			w.out = append(w.out, src[i:end]...)
			i = end - 1
		default: // a literal or a number, written byte by byte
			w.startToken()
			w.out = append(w.out, c)
		}
	}
}

// startToken begins a token, on a new line when one is pending.
func (w *writer) startToken() {
	w.opened = false
	if w.pending {
		w.pending = false
		w.newline(w.depth)
	}
}

// newline ends the line and indents the next one by level levels.
func (w *writer) newline(level int) {
	w.out = append(w.out, '\n')
	for range level {
		w.out = append(w.out, indentUnit...)
	}
}

// stringEnd returns the index just past the string that starts at src[i].
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}
