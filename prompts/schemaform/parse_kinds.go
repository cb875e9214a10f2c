package schemaform

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// object builds a nested object: a group of its properties in document
// order. A nested object without properties is free JSON; a map
// (additionalProperties or patternProperties with a schema) is beyond the
// form.
func (p *parser) object(n *node, o schemaObj, depth int) (*node, error) {
	if depth >= maxDepth {
		return nil, unsupported(n.path, "objects nested deeper than %d levels", maxDepth)
	}
	keys := orderedKeys(o["properties"])
	if len(keys) == 0 {
		if ap, ok := decodeObj(o["additionalProperties"]); ok && len(ap) > 0 {
			return nil, unsupported(n.path, "a map of additionalProperties")
		}
		if pp, ok := decodeObj(o["patternProperties"]); ok && len(pp) > 0 {
			return nil, unsupported(n.path, "a map of patternProperties")
		}
		if n.path != "" {
			n.kind, n.hint = kindJSON, "JSON object"
			return p.leaf(n)
		}
	}
	if _, err := p.leaf(n); err != nil {
		return nil, err
	}
	props, _ := decodeObj(o["properties"])
	required := o.strings("required")
	n.kind, n.hint = kindGroup, "object"
	for _, k := range keys {
		c, err := p.build(k, n.path+"/"+pointerToken(k), props[k], depth+1)
		if err != nil {
			return nil, err
		}
		if c != nil {
			c.required = slices.Contains(required, k)
			n.children = append(n.children, c)
		}
	}
	return n, nil
}

// array builds a multi-select (items with enum or const alternatives) or a
// list of primitives typed as comma-separated text.
func (p *parser) array(n *node, o schemaObj) (*node, error) {
	items := o["items"]
	if o["prefixItems"] != nil || (len(items) > 0 && items[0] == '[') {
		return nil, unsupported(n.path, "a tuple (items by position)")
	}
	n.kind, n.itemKind = kindList, kindJSON
	io, ok := decodeObj(items)
	if !ok {
		return p.leaf(n.withHint(o, "list of JSON values"))
	}
	mark := len(p.refs)
	defer func() { p.refs = p.refs[:mark] }()
	io, err := p.deref(io, n.path+"/items")
	if err != nil {
		return nil, err
	}
	if opts, ok := choices(io); ok {
		n.kind, n.options = kindMulti, opts
		return p.leaf(n.withHint(o, "any of"))
	}
	if _, err := alternativeShapes(io, n.path+"/items"); err != nil {
		return nil, err
	}
	types, _ := io.types()
	switch {
	case len(types) == 1 && scalarKind(types[0]) != kindJSON:
		n.itemKind = scalarKind(types[0])
		return p.leaf(n.withHint(o, "list of "+types[0], io.str("format")))
	case len(types) == 0 && io["properties"] == nil && io["items"] == nil:
		return p.leaf(n.withHint(o, "list of JSON values"))
	}
	return nil, unsupported(n.path, "an array of objects or arrays")
}

// withHint sets the hint of a list: what it holds and how many.
func (n *node) withHint(o schemaObj, parts ...string) *node {
	lo, hi := string(o["minItems"]), string(o["maxItems"])
	n.hint = joinHint(append(parts, bounds(lo, hi, " items"))...)
	return n
}

// alternativeShapes reports whether o has oneOf/anyOf alternatives, and
// refuses alternatives that are objects or arrays: the form cannot offer a
// choice between shapes.
func alternativeShapes(o schemaObj, path string) (bool, error) {
	alts := append(o.list("oneOf"), o.list("anyOf")...)
	for _, a := range alts {
		ao, ok := decodeObj(a)
		if !ok {
			continue
		}
		t, _ := ao.types()
		structured := ao["$ref"] != nil || ao["properties"] != nil || ao["items"] != nil ||
			slices.Contains(t, "object") || slices.Contains(t, "array")
		if structured {
			return true, unsupported(path, "oneOf/anyOf between objects or arrays")
		}
	}
	return len(alts) > 0, nil
}

// choices reads the options of an enum: "enum" (labels from the legacy
// "enumNames"), "const", or oneOf/anyOf whose every branch is a const
// (labels from each branch's title).
func choices(o schemaObj) ([]option, bool) {
	if raw, ok := o["const"]; ok {
		return []option{{value: raw, label: display(raw)}}, true
	}
	if vals := o.list("enum"); vals != nil {
		names := o.strings("enumNames")
		opts := make([]option, 0, len(vals))
		for i, v := range vals {
			label := display(v)
			if len(names) == len(vals) {
				label = names[i]
			}
			opts = append(opts, option{value: v, label: label})
		}
		return opts, len(opts) > 0 && len(opts) <= maxOptions
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		alts := o.list(kw)
		opts := make([]option, 0, len(alts))
		for _, a := range alts {
			ao, ok := decodeObj(a)
			if !ok || ao["const"] == nil {
				break
			}
			opts = append(opts, option{value: ao["const"], label: cmp(ao.str("title"), display(ao["const"]))})
		}
		if len(alts) > 0 && len(opts) == len(alts) && len(opts) <= maxOptions {
			return opts, true
		}
	}
	return nil, false
}

// display shows a JSON value: a string without its quotes, anything else
// as compact JSON.
func display(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return compact(raw)
}

// rangeHint describes the bounds of a number or the length of a string.
func rangeHint(o schemaObj, k kind) string {
	switch k {
	case kindNumber, kindInteger:
		lo, hi := string(o["minimum"]), string(o["maximum"])
		if x := string(o["exclusiveMinimum"]); lo == "" && x != "" && x != "true" && x != "false" {
			return strings.TrimSpace(joinHint("> "+x, bounds("", hi, "")))
		}
		if x := string(o["exclusiveMaximum"]); hi == "" && x != "" && x != "true" && x != "false" {
			return strings.TrimSpace(joinHint(bounds(lo, "", ""), "< "+x))
		}
		return bounds(lo, hi, "")
	case kindText:
		return bounds(string(o["minLength"]), string(o["maxLength"]), " chars")
	}
	return ""
}

// bounds writes "lo–hi unit", "≥ lo unit" or "≤ hi unit".
func bounds(lo, hi, unit string) string {
	switch {
	case lo != "" && hi != "":
		return lo + "–" + hi + unit
	case lo != "":
		return "≥ " + lo + unit
	case hi != "":
		return "≤ " + hi + unit
	}
	return ""
}

// compact returns raw as compact JSON (raw itself when it is not JSON).
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
