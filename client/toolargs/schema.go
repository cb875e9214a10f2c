package toolargs

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// maxRefHops bounds the local $ref chain followed to find a property's
// schema.
const maxRefHops = 16

// node is the part of a JSON Schema the conversion reads. A member of an
// unexpected shape reads as absent.
type node struct {
	Type                 json.RawMessage            `json:"type"`
	Title                string                     `json:"title"`
	Description          string                     `json:"description"`
	Enum                 []json.RawMessage          `json:"enum"`
	Const                json.RawMessage            `json:"const"`
	OneOf                []json.RawMessage          `json:"oneOf"`
	AnyOf                []json.RawMessage          `json:"anyOf"`
	AllOf                []json.RawMessage          `json:"allOf"`
	Ref                  string                     `json:"$ref"`
	Minimum              json.Number                `json:"minimum"`
	Maximum              json.Number                `json:"maximum"`
	ExclusiveMinimum     json.RawMessage            `json:"exclusiveMinimum"`
	ExclusiveMaximum     json.RawMessage            `json:"exclusiveMaximum"`
	Properties           map[string]json.RawMessage `json:"properties"`
	PatternProperties    map[string]json.RawMessage `json:"patternProperties"`
	AdditionalProperties json.RawMessage            `json:"additionalProperties"`
	Required             []string                   `json:"required"`
	Defs                 map[string]json.RawMessage `json:"$defs"`
	Definitions          map[string]json.RawMessage `json:"definitions"`
}

// decodeNode reads a schema; one that is not an object (true, false, or
// broken) is an empty node, which takes anything.
func decodeNode(raw json.RawMessage) node {
	var n node
	if json.Unmarshal(raw, &n) != nil {
		// A member of the wrong shape spoils the whole decode: read the
		// members one by one so the others still count.
		var members map[string]json.RawMessage
		if json.Unmarshal(raw, &members) != nil {
			return node{}
		}
		n = node{}
		for k, v := range members {
			b, _ := json.Marshal(map[string]json.RawMessage{k: v})
			_ = json.Unmarshal(b, &n)
		}
	}
	return n
}

// root is the tool's inputSchema with the definitions its $refs name.
type root struct {
	node
}

// resolve follows local $refs (#/$defs/x, #/definitions/x) from n.
func (r root) resolve(n node) node {
	for range maxRefHops {
		if n.Ref == "" {
			return n
		}
		name, ok := strings.CutPrefix(n.Ref, "#/$defs/")
		defs := r.Defs
		if !ok {
			if name, ok = strings.CutPrefix(n.Ref, "#/definitions/"); !ok {
				return n
			}
			defs = r.Definitions
		}
		raw, found := defs[unescapePointer(name)]
		if !found {
			return n
		}
		n = decodeNode(raw)
	}
	return n
}

// unescapePointer undoes the escapes of a JSON pointer token.
func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// property finds the schema of key: a declared property, a
// patternProperties match, or additionalProperties when the schema gives
// it as true or a schema. ok is false when key is not allowed (see
// undeclared).
func (r root) property(key string) (n node, ok bool) {
	if raw, found := r.Properties[key]; found {
		return r.resolve(decodeNode(raw)), true
	}
	for pattern, raw := range r.PatternProperties {
		if re, err := regexp.Compile(pattern); err == nil && re.MatchString(key) {
			return r.resolve(decodeNode(raw)), true
		}
	}
	extra := bytes.TrimSpace(r.AdditionalProperties)
	switch {
	case len(extra) > 0 && extra[0] == '{':
		return r.resolve(decodeNode(extra)), true
	case string(extra) == "true":
		return node{}, true
	case len(extra) == 0 && r.Properties == nil && r.PatternProperties == nil:
		return node{}, true // the schema says nothing of its keys
	}
	return node{}, false
}

// declared returns the names of the declared properties, sorted.
func (r root) declared() []string {
	names := make([]string, 0, len(r.Properties))
	for k := range r.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// types returns the JSON types n allows: its type (a name or a list of
// names), else the types of its anyOf or oneOf alternatives; nil when it
// names none.
func (r root) types(n node) []string { return r.typesAt(n, 0) }

// typesAt is types at a depth of alternatives, which a $ref cycle
// through anyOf would otherwise grow without end.
func (r root) typesAt(n node, depth int) []string {
	var one string
	var many []string
	switch {
	case json.Unmarshal(n.Type, &one) == nil && one != "":
		return []string{one}
	case json.Unmarshal(n.Type, &many) == nil && len(many) > 0:
		return many
	}
	if depth >= maxRefHops {
		return nil
	}
	var out []string
	for _, alt := range slices.Concat(n.AnyOf, n.OneOf) {
		ts := r.typesAt(r.resolveShallow(alt), depth+1)
		if ts == nil {
			return nil // an alternative of any type: anything goes
		}
		for _, t := range ts {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// resolveShallow decodes an alternative and follows its $ref, without
// looking into its own alternatives (types does, bounded by the depth of
// the document).
func (r root) resolveShallow(raw json.RawMessage) node { return r.resolve(decodeNode(raw)) }

// choice is one value an enum, a const or a oneOf/anyOf of consts allows,
// with its title when the schema gives one.
type choice struct {
	value json.RawMessage
	title string
}

// choices returns the values n allows, or nil when it allows more than a
// list of values.
func (r root) choices(n node) []choice {
	var out []choice
	for _, v := range n.Enum {
		out = append(out, choice{value: compact(v)})
	}
	if len(n.Const) > 0 {
		out = append(out, choice{value: compact(n.Const), title: n.Title})
	}
	if len(out) > 0 {
		return out
	}
	alts := slices.Concat(n.OneOf, n.AnyOf)
	for _, raw := range alts {
		alt := r.resolveShallow(raw)
		if len(alt.Const) == 0 {
			return nil // an alternative that is not one value
		}
		out = append(out, choice{value: compact(alt.Const), title: alt.Title})
	}
	return out
}

// compact is v without insignificant white space (v itself if it is not
// valid JSON).
func compact(v json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

// listChoices renders the allowed values for a message: strings as they
// are typed, other values as JSON, each title in parentheses.
func listChoices(cs []choice) string {
	const shown = 20
	parts := make([]string, 0, min(len(cs), shown))
	for i, c := range cs {
		if i == shown {
			parts = append(parts, "…")
			break
		}
		s := termtext.LineMax(typed(c.value), 80)
		if c.title != "" {
			s += " (" + termtext.LineMax(c.title, 80) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// typed is how a person types a JSON value as a VALUE: a string as its
// text, anything else as its JSON.
func typed(v json.RawMessage) string {
	var s string
	if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// about describes a property in the schema's words, for a message: its
// types, bounds and description, as in `integer ≥ 1, "How many"`.
func (r root) about(n node) string {
	var parts []string
	if ts := r.types(n); len(ts) > 0 {
		parts = append(parts, strings.Join(ts, " or "))
	}
	if n.Minimum != "" {
		parts = append(parts, "≥ "+string(n.Minimum))
	}
	if isNumber(n.ExclusiveMinimum) {
		parts = append(parts, "> "+string(n.ExclusiveMinimum))
	}
	if n.Maximum != "" {
		parts = append(parts, "≤ "+string(n.Maximum))
	}
	if isNumber(n.ExclusiveMaximum) {
		parts = append(parts, "< "+string(n.ExclusiveMaximum))
	}
	if d := strings.TrimSpace(n.Description); d != "" {
		parts = append(parts, termtext.QuoteMax(strings.Join(strings.Fields(d), " "), 200))
	} else if t := strings.TrimSpace(n.Title); t != "" {
		parts = append(parts, termtext.QuoteMax(t, 200))
	}
	return strings.Join(parts, ", ")
}

// isNumber reports whether v is a JSON number (draft-06 exclusive bounds;
// draft-04's are booleans).
func isNumber(v json.RawMessage) bool {
	return len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') && json.Valid(v)
}
