package jsonschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// defaultBase is the URI of a schema without $id; nothing is ever loaded
// from it.
const defaultBase = "mcpscope:///schema.json"

// Schema is a compiled JSON Schema; it is safe for concurrent use.
type Schema struct {
	root *node
	// annotations says whether some subschema uses unevaluatedProperties
	// or unevaluatedItems, which need to know what the others evaluated.
	annotations bool
}

// place is where a schema sits: its value, the base URI its references
// resolve against, its dialect and its JSON pointer in the document.
type place struct {
	val     *value
	base    *url.URL
	dialect dialect
	loc     string
}

// compiler turns one schema document into nodes.
type compiler struct {
	resources map[string]place // by absolute URI without fragment
	anchors   map[string]place // by URI "#" anchor name
	places    map[*value]place // every subschema found while indexing
	nodes     map[*value]*node
	pending   []pendingRef
	evaluated bool
}

// pendingRef is a reference met while compiling, resolved after.
type pendingRef struct {
	from    *node
	ref     string
	base    *url.URL
	keyword string
}

// Compile compiles a schema document. Only the document itself is read: a
// reference to another document, an unknown $schema, a keyword whose value
// has the wrong shape and a cycle of references that never moves into the
// value are errors.
func Compile(schema json.RawMessage) (*Schema, error) {
	doc, err := decode(schema)
	if err != nil {
		if errors.As(err, new(tooDeep)) {
			return nil, err
		}
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	base, _ := url.Parse(defaultBase)
	d := draft2020
	if doc.kind == kindObject {
		if s := doc.lookup("$schema"); s != nil {
			if s.kind != kindString {
				return nil, fmt.Errorf("at #: $schema must be a string")
			}
			if d, err = dialectOf(s.text); err != nil {
				return nil, err
			}
		}
	}
	c := &compiler{
		resources: map[string]place{},
		anchors:   map[string]place{},
		places:    map[*value]place{},
		nodes:     map[*value]*node{},
	}
	if err := c.index(place{val: doc, base: base, dialect: d, loc: "#"}); err != nil {
		return nil, err
	}
	top, err := c.node(c.places[doc])
	if err != nil {
		return nil, err
	}
	for len(c.pending) > 0 {
		p := c.pending[len(c.pending)-1]
		c.pending = c.pending[:len(c.pending)-1]
		target, err := c.resolve(p.ref, p.base)
		if err != nil {
			return nil, fmt.Errorf("at %s: %s %q: %w", p.from.loc, p.keyword, p.ref, err)
		}
		n, err := c.node(target)
		if err != nil {
			return nil, err
		}
		p.from.refs = append(p.from.refs, n)
	}
	if err := checkCycles(top); err != nil {
		return nil, err
	}
	return &Schema{root: top, annotations: c.evaluated}, nil
}

// scope applies a schema object's $schema and $id: the dialect and base
// URI of the schema and of what it contains. An "$id" of only a fragment
// (draft-07 and older) names an anchor, returned; resource says whether
// the $id gave a new base.
func scope(p place) (_ place, anchor string, resource bool, _ error) {
	v := p.val
	if v.kind != kindObject {
		return p, "", false, nil
	}
	if s := v.lookup("$schema"); s != nil && p.loc != "#" {
		if s.kind != kindString {
			return p, "", false, fmt.Errorf("at %s: $schema must be a string", p.loc)
		}
		d, err := dialectOf(s.text)
		if err != nil {
			return p, "", false, fmt.Errorf("at %s: %w", p.loc, err)
		}
		p.dialect = d
	}
	if p.dialect.refAlone() && v.lookup("$ref") != nil {
		return p, "", false, nil
	}
	id := v.lookup(p.dialect.idKeyword())
	if id == nil || id.kind != kindString {
		return p, "", false, nil
	}
	uri, frag, _ := strings.Cut(id.text, "#")
	if uri != "" {
		u, err := url.Parse(uri)
		if err != nil {
			return p, "", false, fmt.Errorf("at %s: the %s %q is not a URI: %w", p.loc, p.dialect.idKeyword(), id.text, err)
		}
		p.base = p.base.ResolveReference(u)
	}
	return p, frag, uri != "", nil
}

// index finds every subschema of a document with its scope, and records
// the resources ($id) and anchors references may name.
func (c *compiler) index(p place) error {
	if _, done := c.places[p.val]; done {
		return nil
	}
	p, anchor, resource, err := scope(p)
	if err != nil {
		return err
	}
	c.places[p.val] = p
	v := p.val
	if v.kind != kindObject {
		return nil
	}
	key := p.base.String()
	if resource || p.loc == "#" {
		if r, ok := c.resources[key]; ok && r.val != v {
			return fmt.Errorf("at %s: %s and %s have the same URI %q", p.loc, r.loc, p.loc, key)
		}
		c.resources[key] = p
	}
	for _, kw := range []string{"$anchor", "$dynamicAnchor"} {
		if a := v.lookup(kw); a != nil && a.kind == kindString && p.dialect.has(kw) {
			c.anchors[key+"#"+a.text] = p
		}
	}
	if anchor != "" {
		c.anchors[key+"#"+anchor] = p
	}
	// Under draft-07 the keywords beside $ref do not apply, but the
	// subschemas there are still indexed: references name them.
	return subschemas(v, func(sub *value, path string) error {
		return c.index(place{val: sub, base: p.base, dialect: p.dialect, loc: p.loc + path})
	})
}

// subschemas calls fn on each value a keyword of schema object v holds as
// a schema, with its path below v ("/properties/a").
func subschemas(v *value, fn func(*value, string) error) error {
	for _, m := range v.members {
		at := "/" + escapeToken(m.name)
		var err error
		switch m.name {
		case "additionalProperties", "propertyNames", "additionalItems", "contains", "not",
			"if", "then", "else", "unevaluatedProperties", "unevaluatedItems", "contentSchema":
			err = fn(m.val, at)
		case "items", "allOf", "anyOf", "oneOf", "prefixItems":
			if m.val.kind != kindArray {
				if m.name == "items" {
					err = fn(m.val, at)
				}
				break
			}
			for i, it := range m.val.items {
				if err = fn(it, at+"/"+strconv.Itoa(i)); err != nil {
					break
				}
			}
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
			if m.val.kind != kindObject {
				break
			}
			for _, mm := range m.val.members {
				if m.name == "dependencies" && mm.val.kind == kindArray {
					continue
				}
				if err = fn(mm.val, at+"/"+escapeToken(mm.name)); err != nil {
					break
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// resolve finds the schema a reference names inside the document.
func (c *compiler) resolve(ref string, base *url.URL) (place, error) {
	uri, frag, _ := strings.Cut(ref, "#")
	target := *base
	if uri != "" {
		u, err := url.Parse(uri)
		if err != nil {
			return place{}, fmt.Errorf("not a URI: %w", err)
		}
		target = *base.ResolveReference(u)
	}
	target.Fragment, target.RawFragment = "", ""
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return place{}, fmt.Errorf("the fragment is not percent-encoded right: %w", err)
	}
	key := target.String()
	if frag != "" && !strings.HasPrefix(frag, "/") {
		if p, ok := c.anchors[key+"#"+frag]; ok {
			return p, nil
		}
		if _, ok := c.resources[key]; ok {
			return place{}, fmt.Errorf("no schema has the anchor %q", frag)
		}
		return place{}, fmt.Errorf("it names another document; only references inside the schema are followed")
	}
	res, ok := c.resources[key]
	if !ok {
		return place{}, fmt.Errorf("it names another document; only references inside the schema are followed")
	}
	v, err := walkPointer(res.val, frag)
	if err != nil {
		return place{}, err
	}
	if p, ok := c.places[v]; ok {
		return p, nil
	}
	p := place{val: v, base: res.base, dialect: res.dialect, loc: res.loc + escapeFragment(frag)}
	// A schema at a place no keyword makes a schema ("#/components/x") is
	// indexed now, for the anchors and references inside it.
	if err := c.index(p); err != nil {
		return place{}, err
	}
	return c.places[v], nil
}

// walkPointer follows a JSON pointer ("" or "/a/0/b~1c") from v.
func walkPointer(v *value, ptr string) (*value, error) {
	if ptr == "" {
		return v, nil
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		var next *value
		switch v.kind {
		case kindObject:
			next = v.lookup(tok)
		case kindArray:
			i, err := strconv.Atoi(tok)
			if err == nil && i >= 0 && i < len(v.items) && (tok == "0" || tok[0] != '0') {
				next = v.items[i]
			}
		}
		if next == nil {
			return nil, fmt.Errorf("nothing in the schema is at %q", ptr)
		}
		v = next
	}
	return v, nil
}

// escapeToken escapes a JSON pointer token.
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// escapeFragment keeps a pointer fit to follow "#" in a location.
func escapeFragment(ptr string) string {
	return (&url.URL{Fragment: ptr}).EscapedFragment()
}
