package explore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxURITemplate bounds the length of a URI template the explorer parses.
const maxURITemplate = 8 << 10

// uriTemplate is a parsed RFC 6570 URI template (a resource template's
// uriTemplate). Every variable takes a string value: all the operators of
// levels 1 to 3 and the prefix modifier of level 4 apply; the explode
// modifier is accepted and changes nothing for a string.
type uriTemplate struct {
	parts []templatePart
}

// templatePart is a literal run or one {expression}.
type templatePart struct {
	literal string
	expr    string // the expression's text with its braces, "" for a literal
	op      templateOp
	vars    []templateVarSpec
}

// templateVarSpec is one variable of an expression with its modifiers.
type templateVarSpec struct {
	name   string
	prefix int // the first prefix characters only; 0 for the whole value
}

// templateOp is how an expression's operator expands (RFC 6570 appendix A).
type templateOp struct {
	first, sep string
	named      bool
	ifEmpty    string
	reserved   bool // reserved characters and pct-encoded triplets pass
}

// templateOps are the operators of levels 1 to 3, by their character.
var templateOps = map[byte]templateOp{
	0:   {sep: ","},
	'+': {sep: ",", reserved: true},
	'#': {first: "#", sep: ",", reserved: true},
	'.': {first: ".", sep: "."},
	'/': {first: "/", sep: "/"},
	';': {first: ";", sep: ";", named: true},
	'?': {first: "?", sep: "&", named: true, ifEmpty: "="},
	'&': {first: "&", sep: "&", named: true, ifEmpty: "="},
}

// templateVar is a variable of a template as a form asks for it: its
// name, the first expression it appears in, and whether the URI needs it
// (it appears outside query, fragment and path-parameter expressions).
type templateVar struct {
	name     string
	expr     string
	required bool
}

// parseURITemplate parses an RFC 6570 URI template.
func parseURITemplate(s string) (*uriTemplate, error) {
	if len(s) > maxURITemplate {
		return nil, fmt.Errorf("the URI template is longer than %d bytes", maxURITemplate)
	}
	t := &uriTemplate{}
	for pos := 0; s != ""; {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			open = len(s)
		}
		if strings.IndexByte(s[:open], '}') >= 0 {
			return nil, errors.New("the URI template has a '}' without '{'")
		}
		if open == len(s) {
			t.parts = append(t.parts, templatePart{literal: s})
			break
		}
		if open > 0 {
			t.parts = append(t.parts, templatePart{literal: s[:open]})
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("the expression at byte %d of the URI template is not closed", pos+open)
		}
		p, err := parseExpression(s[open+1 : open+end])
		if err != nil {
			return nil, fmt.Errorf("the expression %q of the URI template: %w", s[open:open+end+1], err)
		}
		p.expr = s[open : open+end+1]
		t.parts = append(t.parts, p)
		pos += open + end + 1
		s = s[open+end+1:]
	}
	return t, nil
}

// parseExpression parses the inside of {…}: an optional operator and a
// comma-separated list of variables with :N or * modifiers.
func parseExpression(s string) (templatePart, error) {
	var p templatePart
	var opChar byte
	if s != "" && strings.IndexByte("+#./;?&=,!@|", s[0]) >= 0 {
		opChar, s = s[0], s[1:]
	}
	op, ok := templateOps[opChar]
	if !ok {
		return p, fmt.Errorf("the operator %q is reserved", opChar)
	}
	p.op = op
	for _, spec := range strings.Split(s, ",") {
		v := templateVarSpec{name: spec}
		if name, n, ok := strings.Cut(spec, ":"); ok {
			length, err := strconv.Atoi(n)
			if err != nil || length < 1 || length > 9999 || n[0] == '0' || n[0] == '+' {
				return p, fmt.Errorf("the prefix %q is not a length from 1 to 9999", n)
			}
			v = templateVarSpec{name: name, prefix: length}
		} else {
			v.name = strings.TrimSuffix(spec, "*")
		}
		if !validVarName(v.name) {
			return p, fmt.Errorf("%q is not a variable name", v.name)
		}
		p.vars = append(p.vars, v)
	}
	return p, nil
}

// validVarName reports whether s is an RFC 6570 varname: letters, digits,
// '_' and pct-encoded triplets, with single dots between them.
func validVarName(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		default:
			return false
		}
	}
	return true
}

// Vars returns each variable once, in the order of first appearance.
func (t *uriTemplate) Vars() []templateVar {
	var out []templateVar
	at := map[string]int{}
	for _, p := range t.parts {
		for _, v := range p.vars {
			needed := !p.op.named && p.op.first != "#"
			if i, ok := at[v.name]; ok {
				out[i].required = out[i].required || needed
				continue
			}
			at[v.name] = len(out)
			out = append(out, templateVar{name: v.name, expr: p.expr, required: needed})
		}
	}
	return out
}

// Expand builds the URI from values; a variable missing from values is
// undefined and left out, as RFC 6570 says.
func (t *uriTemplate) Expand(values map[string]string) string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.expr == "" {
			pctEncode(&b, p.literal, true)
			continue
		}
		first := true
		for _, v := range p.vars {
			value, ok := values[v.name]
			if !ok {
				continue
			}
			if first {
				b.WriteString(p.op.first)
				first = false
			} else {
				b.WriteString(p.op.sep)
			}
			if p.op.named {
				pctEncode(&b, v.name, true)
				if value == "" {
					b.WriteString(p.op.ifEmpty)
					continue
				}
				b.WriteByte('=')
			}
			pctEncode(&b, prefixOf(value, v.prefix), p.op.reserved)
		}
	}
	return b.String()
}

// prefixOf returns the first n characters of s (all of it for n == 0).
func prefixOf(s string, n int) string {
	if n <= 0 {
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// pctEncode writes s with every byte outside the unreserved set (and,
// when reserved, outside the reserved set) percent-encoded as UTF-8; with
// reserved, pct-encoded triplets already in s pass as they are.
func pctEncode(b *strings.Builder, s string, reserved bool) {
	const hexDigits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c):
			b.WriteByte(c)
		case reserved && strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0:
			b.WriteByte(c)
		case reserved && c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteString(s[i : i+3])
			i += 2
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		}
	}
}

// isUnreserved reports whether c is ALPHA, DIGIT, '-', '.', '_' or '~'.
func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
