package toolargs

import (
	"encoding/json"
	"maps"
	"slices"
)

// newRoot reads a tool's inputSchema for its keys the way generators
// write it: a root that is a local $ref (zod's named schemas, pydantic's
// recursive models) is the schema it names; the properties of allOf
// branches (an intersection) are declared as if the root declared them,
// their required keys required; and a key declared by any oneOf or anyOf
// branch (a union of objects, a discriminated union) is declared, typed
// by its branches when every branch that declares it agrees on its type
// and untyped otherwise. Which branch the whole object matches is left to
// the schema's validation.
func newRoot(n node) root {
	r := root{node: n}
	if n.Ref != "" {
		target := r.resolve(n)
		if target.Ref == "" {
			// A local $ref names a place in the whole document: the
			// root's definitions stay the ones every $ref reads.
			target.Defs, target.Definitions = n.Defs, n.Definitions
			r.node = target
		}
	}
	r.mergeAll(0)
	return r
}

// mergeAll folds the root's allOf, oneOf and anyOf branches into its
// properties, depth levels of nesting deep at most.
func (r *root) mergeAll(depth int) {
	if depth >= maxRefHops {
		return
	}
	for _, raw := range r.AllOf {
		b := r.branch(raw, depth)
		r.declare(b.Properties)
		for _, k := range b.Required {
			if !slices.Contains(r.Required, k) {
				r.Required = append(r.Required, k)
			}
		}
	}
	union := map[string]json.RawMessage{}
	agree := map[string]bool{}
	for _, raw := range slices.Concat(r.OneOf, r.AnyOf) {
		b := r.branch(raw, depth)
		for k, v := range b.Properties {
			prev, seen := union[k]
			switch {
			case !seen:
				union[k], agree[k] = v, true
			case agree[k] && !slices.Equal(r.types(r.resolve(decodeNode(prev))), r.types(r.resolve(decodeNode(v)))):
				agree[k] = false
			}
		}
	}
	for k := range union {
		if !agree[k] {
			union[k] = json.RawMessage(`{}`) // the branches disagree: any value, as typed
		}
	}
	r.declare(union)
}

// branch is one allOf/oneOf/anyOf branch of the root, its $ref followed
// and its own branches folded in.
func (r *root) branch(raw json.RawMessage, depth int) root {
	b := root{node: r.resolve(decodeNode(raw))}
	b.Defs, b.Definitions = r.Defs, r.Definitions
	b.mergeAll(depth + 1)
	return b
}

// declare adds props to the root's properties; a key the root declares
// already keeps its schema.
func (r *root) declare(props map[string]json.RawMessage) {
	if len(props) == 0 {
		return
	}
	merged := maps.Clone(r.Properties)
	if merged == nil {
		merged = map[string]json.RawMessage{}
	}
	for k, v := range props {
		if _, ok := merged[k]; !ok {
			merged[k] = v
		}
	}
	r.Properties = merged
}
