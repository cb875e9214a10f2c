package jsondiff

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Render writes a decoded value as compact JSON, object members in name
// order, and stops once it has written max bytes (max ≤ 0: 256), ending
// the text with "…". It works from a stack of its own and reads no more of
// the value than it writes, so a huge or deep value costs no more than
// what is shown. The text is JSON, not yet safe for a terminal: pass it
// through termtext.
func Render(v any, max int) string {
	if max <= 0 {
		max = 256
	}
	var b strings.Builder
	work := []any{v}
	for len(work) > 0 {
		if b.Len() >= max {
			return cut(b.String(), max)
		}
		top := work[len(work)-1]
		work = work[:len(work)-1]
		switch x := top.(type) {
		case literal:
			b.WriteString(string(x))
		case map[string]any:
			work = pushObject(work, x)
		case []any:
			work = pushArray(work, x)
		case string:
			appendString(&b, x, max-b.Len())
		case json.Number:
			b.WriteString(string(x))
		case float64:
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		case bool:
			b.WriteString(strconv.FormatBool(x))
		case nil:
			b.WriteString("null")
		default:
			b.WriteString("?")
		}
	}
	if b.Len() > max {
		return cut(b.String(), max)
	}
	return b.String()
}

// Line renders the difference as PATH: OLD → NEW, each value by Render
// with max, "(none)" for the side that lacks the path. Like Render's, the
// text is not yet safe for a terminal.
func (d Difference) Line(max int) string {
	old, new := Render(d.Old, max), Render(d.New, max)
	switch d.Kind {
	case Added:
		old = "(none)"
	case Removed:
		new = "(none)"
	}
	return d.Path().String() + ": " + old + " → " + new
}

// literal is text Render writes as it is: punctuation and member names.
type literal string

// pushObject stacks an object's parts so that they pop in order.
func pushObject(work []any, m map[string]any) []any {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	work = append(work, literal("}"))
	for i := len(names) - 1; i >= 0; i-- {
		work = append(work, m[names[i]])
		var key strings.Builder
		if i > 0 {
			key.WriteByte(',')
		}
		appendString(&key, names[i], 0)
		key.WriteByte(':')
		work = append(work, literal(key.String()))
	}
	return append(work, literal("{"))
}

// pushArray stacks an array's parts so that they pop in order.
func pushArray(work []any, a []any) []any {
	work = append(work, literal("]"))
	for i := len(a) - 1; i >= 0; i-- {
		work = append(work, a[i])
		if i > 0 {
			work = append(work, literal(","))
		}
	}
	return append(work, literal("["))
}

// appendString writes s as a JSON string (HTML characters as they are);
// with room > 0, only about room bytes of it.
func appendString(b *strings.Builder, s string, room int) {
	if room > 0 && len(s) > room {
		at := room
		for at > 0 && !utf8.RuneStart(s[at]) {
			at--
		}
		s = s[:at]
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// cut shortens s to max bytes at a character boundary and marks the cut.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max] + "…"
}
