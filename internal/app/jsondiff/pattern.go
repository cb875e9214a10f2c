package jsondiff

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxPattern is the longest pattern ParsePattern reads, in bytes.
const MaxPattern = 4096

// maxIndex is the largest element index a pattern may name.
const maxIndex = 1<<31 - 1

// Pattern selects paths. Its syntax, a subset of JSONPath:
//
//	$                  the whole document
//	.name              the member name (a bare name: no . [ ] * ' " \ or space)
//	["name"] ['name']  any member name, quoted ("…" takes Go/JSON escapes, '…' takes \' and \\)
//	[N]                the element at position N (from 0)
//	.* [*]             any member or element
//	..name ..* ..[…]   that step at any depth below: zero or more steps skipped
//
// For example $.result.tools[*].annotations, $..timestamp,
// $.result["io.modelcontextprotocol/related"]. A pattern matches a path
// when it matches all of it; what lies below a matched path goes with it.
type Pattern struct {
	src   string
	steps []step
}

// stepKind says what one step of a pattern matches.
type stepKind uint8

const (
	stepName  stepKind = iota // one member name
	stepIndex                 // one element position
	stepAny                   // any member or element
)

// step is one step of a pattern.
type step struct {
	kind  stepKind
	name  string
	index int
	deep  bool // ..: any number of segments may come before it
}

// matches reports whether the step matches segment s.
func (st step) matches(s Segment) bool {
	switch st.kind {
	case stepAny:
		return true
	case stepIndex:
		return s.IsIndex && s.Index == st.index
	}
	return !s.IsIndex && s.Name == st.name
}

// String returns the pattern as it was written.
func (p Pattern) String() string { return p.src }

// MustPattern parses a pattern known to be valid; it panics otherwise, so
// it is for patterns written in the source.
func MustPattern(s string) Pattern {
	p, err := ParsePattern(s)
	if err != nil {
		panic(err)
	}
	return p
}

// ParsePattern parses a pattern (see Pattern). The error says where the
// text stops making sense.
func ParsePattern(s string) (Pattern, error) {
	if len(s) > MaxPattern {
		return Pattern{}, fmt.Errorf("the path is %d bytes long; at most %d are read", len(s), MaxPattern)
	}
	if !utf8.ValidString(s) {
		return Pattern{}, errors.New("the path is not valid UTF-8")
	}
	if !strings.HasPrefix(s, "$") {
		return Pattern{}, errors.New("a path starts with $, as in $.result.tools[*].annotations")
	}
	p := Pattern{src: s}
	for i := 1; i < len(s); {
		st, n, err := parseStep(s[i:])
		if err != nil {
			return Pattern{}, fmt.Errorf("at byte %d of the path: %w", i, err)
		}
		p.steps = append(p.steps, st)
		i += n
	}
	return p, nil
}

// parseStep reads the step at the start of s and returns it and its length.
func parseStep(s string) (step, int, error) {
	switch {
	case strings.HasPrefix(s, ".."):
		st, n, err := parseAfterDot(s[2:], true)
		st.deep = true
		return st, n + 2, err
	case s[0] == '.':
		st, n, err := parseAfterDot(s[1:], false)
		return st, n + 1, err
	case s[0] == '[':
		return parseBracket(s)
	}
	r, _ := utf8.DecodeRuneInString(s)
	return step{}, 0, fmt.Errorf("%q cannot start a step: use .name, [N], [\"name\"] or [*]", string(r))
}

// parseAfterDot reads what follows "." or "..": a bare name, *, or (after
// "..") a bracket.
func parseAfterDot(s string, deep bool) (step, int, error) {
	switch {
	case s == "":
		return step{}, 0, errors.New("the path ends after a dot: a name or * must follow")
	case s[0] == '*':
		return step{kind: stepAny}, 1, nil
	case s[0] == '[' && deep:
		return parseBracket(s)
	}
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !bareRune(r) {
			break
		}
		n += size
	}
	if n == 0 {
		r, _ := utf8.DecodeRuneInString(s)
		return step{}, 0, fmt.Errorf("%q cannot start a name after a dot; quote such a name as [\"…\"]", string(r))
	}
	return step{kind: stepName, name: s[:n]}, n, nil
}

// parseBracket reads [N], [*], ["name"] or ['name'] at the start of s.
func parseBracket(s string) (step, int, error) {
	body := s[1:]
	var st step
	var n int
	switch {
	case body == "":
		return step{}, 0, errors.New("the path ends after [")
	case body[0] == '*':
		st, n = step{kind: stepAny}, 1
	case body[0] == '"' || body[0] == '\'':
		name, size, err := parseQuoted(body)
		if err != nil {
			return step{}, 0, err
		}
		st, n = step{kind: stepName, name: name}, size
	case body[0] >= '0' && body[0] <= '9':
		for n < len(body) && body[n] >= '0' && body[n] <= '9' {
			n++
		}
		i, err := strconv.Atoi(body[:n])
		if err != nil || i > maxIndex || n > 1 && body[0] == '0' {
			return step{}, 0, fmt.Errorf("[%s] is not an index: use a whole number from 0 to %d without leading zeros", body[:n], maxIndex)
		}
		st = step{kind: stepIndex, index: i}
	default:
		return step{}, 0, errors.New(`[ takes an index, *, or a quoted name as in ["name"]`)
	}
	if n >= len(body) || body[n] != ']' {
		return step{}, 0, errors.New("a ] is missing")
	}
	return st, n + 2, nil
}

// parseQuoted reads a quoted name at the start of s and returns it and the
// length of its quoted form.
func parseQuoted(s string) (string, int, error) {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the escaped byte cannot close the quote
		case q:
			if q == '"' {
				name, err := strconv.Unquote(s[:i+1])
				if err != nil {
					return "", 0, fmt.Errorf("the quoted name %s has a bad escape", s[:i+1])
				}
				return name, i + 1, nil
			}
			return singleQuoted(s[1:i]), i + 1, nil
		}
	}
	return "", 0, fmt.Errorf("the quoted name has no closing %c", q)
}

// singleQuoted undoes the \' and \\ escapes of a single-quoted name; a
// backslash before anything else stands for itself.
func singleQuoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '\\') {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
