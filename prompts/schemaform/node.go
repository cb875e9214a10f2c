package schemaform

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// kind is what a schema node becomes on screen.
type kind int

const (
	kindText    kind = iota // a string
	kindNumber              // typed text parsed as a JSON number
	kindInteger             // typed text parsed as an integer
	kindBool                // a toggle
	kindChoice              // one of a list of options
	kindMulti               // any subset of a list of options (array of enum)
	kindList                // comma-separated primitives (array)
	kindJSON                // free JSON: typed text read as JSON, else as a string
	kindGroup               // a nested object
)

// option is one choice of an enum: the JSON value sent and the label shown.
type option struct {
	value json.RawMessage
	label string
}

// node is one property of the schema as the form understands it.
type node struct {
	name     string // property key ("" for the root)
	path     string // JSON pointer of the value
	title    string
	desc     string
	kind     kind
	itemKind kind // element kind of a kindList
	required bool
	format   string
	earliest string // a date's formatMinimum, the first day it takes
	hint     string // type and constraints, shown beside the label
	options  []option
	children []*node
	def      json.RawMessage // the schema's default, if any
}

// label is what the form shows for the node, safe to print: the schema is
// the server's.
func (n *node) label() string {
	if n.title != "" {
		return shown(n.title)
	}
	return shown(n.name)
}

// shownMax bounds, in bytes, the one-line schema text a form shows (a
// title, a hint, an option): more than a line holds.
const shownMax = 1 << 10

// shown makes one line of the server's schema text safe to print: escape
// sequences and other controls are shown escaped, and it is bounded.
func shown(s string) string { return termtext.LineMax(s, shownMax) }

// schemaObj is one schema object with its keywords still raw.
type schemaObj map[string]json.RawMessage

// decodeObj reads a schema object; ok is false for anything else
// (a boolean schema, a string, …).
func decodeObj(raw json.RawMessage) (schemaObj, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var o schemaObj
	if json.Unmarshal(raw, &o) != nil {
		return nil, false
	}
	if o == nil {
		o = schemaObj{}
	}
	return o, true
}

// str returns a string keyword, "" when absent or not a string.
func (o schemaObj) str(key string) string {
	var s string
	if raw, ok := o[key]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// list returns an array keyword's elements, nil when absent or not an array.
func (o schemaObj) list(key string) []json.RawMessage {
	var l []json.RawMessage
	if raw, ok := o[key]; ok && json.Unmarshal(raw, &l) == nil {
		return l
	}
	return nil
}

// strings returns an array-of-strings keyword; non-strings are skipped.
func (o schemaObj) strings(key string) []string {
	var out []string
	for _, raw := range o.list(key) {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// types returns the "type" keyword as a list, without "null".
func (o schemaObj) types() (types []string, nullable bool) {
	raw, ok := o["type"]
	if !ok {
		return nil, false
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, one == "null"
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	for _, t := range many {
		if t == "null" {
			nullable = true
			continue
		}
		types = append(types, t)
	}
	return types, nullable
}

// orderedKeys returns the keys of a JSON object in document order, once
// each; nil when raw is not an object.
func orderedKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := tok.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// pointerToken escapes one JSON pointer reference token (RFC 6901).
func pointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapeToken undoes pointerToken.
func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// within reports whether pointer p is path itself or lies below it.
func within(p, path string) bool {
	return p == path || strings.HasPrefix(p, path+"/")
}
