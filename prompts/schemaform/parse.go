package schemaform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Bounds of what the form draws; past them the JSON editor takes over.
const (
	maxDepth   = 8   // nesting of objects
	maxFields  = 256 // fields in one form
	maxDerefs  = 32  // $ref / allOf hops for one property
	maxOptions = 512 // options of one choice
)

// unsupportedError says why a schema cannot be drawn as a form.
type unsupportedError struct {
	path   string
	reason string
}

// Error implements error.
func (e *unsupportedError) Error() string {
	if e.path == "" {
		return e.reason
	}
	return e.path + ": " + e.reason
}

// parser builds the node tree of one schema.
type parser struct {
	root   json.RawMessage
	refs   []string // $refs being expanded, to catch cycles
	fields int
}

// parse reads the top-level schema into the root group. A schema the form
// cannot express yields an *unsupportedError.
func parse(schema json.RawMessage) (*node, error) {
	p := &parser{root: schema}
	n, err := p.build("", "", schema, 0)
	if err != nil {
		return nil, err
	}
	if n == nil || n.kind != kindGroup {
		return nil, &unsupportedError{reason: "the schema does not describe an object"}
	}
	return n, nil
}

func unsupported(path, format string, args ...any) error {
	return &unsupportedError{path: path, reason: fmt.Sprintf(format, args...)}
}

// build makes the node of one (sub)schema; nil for a false schema, which
// no value can satisfy, so the form leaves the property out.
func (p *parser) build(name, path string, raw json.RawMessage, depth int) (*node, error) {
	o, ok := decodeObj(raw)
	if !ok {
		if string(bytes.TrimSpace(raw)) == "false" {
			return nil, nil
		}
		return p.leaf(&node{name: name, path: path, kind: kindJSON, hint: "JSON"})
	}
	mark := len(p.refs)
	defer func() { p.refs = p.refs[:mark] }()
	o, err := p.deref(o, path)
	if err != nil {
		return nil, err
	}
	n := &node{name: name, path: path, title: o.str("title"), desc: o.str("description"), def: o["default"]}
	if opts, ok := choices(o); ok {
		n.kind, n.options, n.hint = kindChoice, opts, "one of"
		return p.leaf(n)
	}
	if alt, ok := p.alternatives(o); ok {
		return p.annotate(alt, n, depth)
	}
	types, _ := o.types()
	if shaped, err := alternativeShapes(o, path); err != nil {
		return nil, err
	} else if shaped && len(types) == 0 {
		n.kind, n.hint = kindJSON, "JSON"
		return p.leaf(n)
	}
	if len(types) == 0 {
		switch {
		case o["properties"] != nil || o["additionalProperties"] != nil:
			types = []string{"object"}
		case o["items"] != nil:
			types = []string{"array"}
		}
	}
	switch {
	case len(types) != 1:
		n.kind, n.hint = kindJSON, "JSON"
		return p.leaf(n)
	case types[0] == "object":
		return p.object(n, o, depth)
	case types[0] == "array":
		return p.array(n, o)
	}
	n.kind, n.hint = scalarKind(types[0]), types[0]
	n.format = o.str("format")
	n.earliest = o.str("formatMinimum")
	n.hint = joinHint(n.hint, n.format, rangeHint(o, n.kind))
	if pat := o.str("pattern"); pat != "" {
		n.hint = joinHint(n.hint, "pattern "+pat)
	}
	return p.leaf(n)
}

// leaf counts one more field (or nested object: $refs can multiply
// them, so every node counts against the bound).
func (p *parser) leaf(n *node) (*node, error) {
	p.fields++
	if p.fields > maxFields {
		return nil, unsupported("", "more than %d fields", maxFields)
	}
	return n, nil
}

// annotate builds the schema a wrapper stands for and keeps the wrapper's
// own title, description and default over the inner ones.
func (p *parser) annotate(inner json.RawMessage, outer *node, depth int) (*node, error) {
	n, err := p.build(outer.name, outer.path, inner, depth)
	if n == nil || err != nil {
		return n, err
	}
	n.title = cmp(outer.title, n.title)
	n.desc = cmp(outer.desc, n.desc)
	if outer.def != nil {
		n.def = outer.def
	}
	return n, nil
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// deref follows $ref and single-element allOf wrappers; the referrer's own
// keywords win over the target's.
func (p *parser) deref(o schemaObj, path string) (schemaObj, error) {
	for range maxDerefs {
		var target json.RawMessage
		ref := o.str("$ref")
		switch all := o.list("allOf"); {
		case ref != "":
			if slices.Contains(p.refs, ref) {
				return nil, unsupported(path, "$ref cycle through %s", ref)
			}
			p.refs = append(p.refs, ref)
			t, err := p.pointer(ref, path)
			if err != nil {
				return nil, err
			}
			target = t
			delete(o, "$ref")
		case len(all) == 1:
			target = all[0]
			delete(o, "allOf")
		case len(all) > 1:
			return nil, unsupported(path, "allOf with %d schemas", len(all))
		default:
			return o, nil
		}
		t, ok := decodeObj(target)
		if !ok {
			t = schemaObj{}
		}
		for k, v := range o {
			t[k] = v
		}
		o = t
	}
	return nil, unsupported(path, "more than %d nested $ref or allOf", maxDerefs)
}

// pointer resolves a local $ref ("#", "#/$defs/x") against the root schema.
func (p *parser) pointer(ref, path string) (json.RawMessage, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || (frag != "" && frag[0] != '/') {
		return nil, unsupported(path, "$ref %s is not a local JSON pointer", ref)
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	cur := p.root
	for _, tok := range strings.Split(frag, "/")[1:] {
		tok = unescapeToken(tok)
		var next json.RawMessage
		if o, ok := decodeObj(cur); ok {
			next = o[tok]
		} else if i, err := strconv.Atoi(tok); err == nil {
			var arr []json.RawMessage
			if json.Unmarshal(cur, &arr) == nil && i >= 0 && i < len(arr) {
				next = arr[i]
			}
		}
		if next == nil {
			return nil, unsupported(path, "$ref %s points nowhere", ref)
		}
		cur = next
	}
	return cur, nil
}

// alternatives reads a nullable oneOf/anyOf ([X, {"type":"null"}]) as X.
func (p *parser) alternatives(o schemaObj) (json.RawMessage, bool) {
	alts := o.list("oneOf")
	if alts == nil {
		alts = o.list("anyOf")
	}
	var keep []json.RawMessage
	for _, a := range alts {
		if ao, ok := decodeObj(a); ok {
			if t, _ := ao.types(); len(ao) == 1 && len(t) == 1 && t[0] == "null" {
				continue
			}
		}
		keep = append(keep, a)
	}
	if len(keep) == 1 && len(alts) == 2 {
		return keep[0], true
	}
	return nil, false
}

// scalarKind maps a JSON Schema type name to a field kind.
func scalarKind(t string) kind {
	switch t {
	case "string":
		return kindText
	case "number":
		return kindNumber
	case "integer":
		return kindInteger
	case "boolean":
		return kindBool
	}
	return kindJSON
}

// joinHint joins the non-empty parts of a hint.
func joinHint(parts ...string) string {
	var keep []string
	for _, s := range parts {
		if s != "" {
			keep = append(keep, s)
		}
	}
	return strings.Join(keep, ", ")
}
