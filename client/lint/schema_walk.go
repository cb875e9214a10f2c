package lint

import (
	"maps"
	"slices"
)

// maxSchemaDepth is how deep into a schema the rules look. Real tool
// schemas nest a handful of levels; a deeper one is reported once
// (schema-too-deep) and read no further, so a hostile schema costs no
// more than a deep one.
const maxSchemaDepth = 64

// Where JSON Schema (2020-12, and the older drafts' spellings) holds
// subschemas: under a map's values, an array's elements, or a keyword's
// one value.
var (
	subschemaMaps   = []string{"properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"}
	subschemaArrays = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	subschemaOnes   = []string{"items", "contains", "not", "propertyNames", "if", "then", "else",
		"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems", "contentSchema"}
)

// booleanAllowed are the keywords whose value is commonly a bare boolean
// (additionalProperties: false) and that every client reads as such.
var booleanAllowed = map[string]bool{
	"additionalProperties": true, "unevaluatedProperties": true,
	"additionalItems": true, "unevaluatedItems": true,
}

// schemaNode is one schema position reached by a walk.
type schemaNode struct {
	value   any    // a map[string]any, a bool, or something invalid
	path    string // its JSON path
	keyword string // the keyword it sits under ("" at the root)
	depth   int
}

// walkSchema calls visit for root and every subschema under it, parents
// first, keys in sorted order, no deeper than maxSchemaDepth. It reports
// whether the schema nests deeper than that.
func walkSchema(root any, path string, visit func(n schemaNode)) (tooDeep bool) {
	var walk func(n schemaNode)
	walk = func(n schemaNode) {
		if n.depth > maxSchemaDepth {
			tooDeep = true
			return
		}
		visit(n)
		obj, ok := n.value.(map[string]any)
		if !ok {
			return
		}
		forEachSubschema(obj, n.path, func(child any, path, keyword string) {
			walk(schemaNode{value: child, path: path, keyword: keyword, depth: n.depth + 1})
		})
	}
	walk(schemaNode{value: root, path: path})
	return tooDeep
}

// forEachSubschema calls visit for each subschema directly under obj.
// Values that are neither objects nor booleans are not schemas (the
// property lists of the old "dependencies") and are skipped.
func forEachSubschema(obj map[string]any, path string, visit func(child any, path, keyword string)) {
	isSchema := func(v any) bool {
		switch v.(type) {
		case map[string]any, bool:
			return true
		}
		return false
	}
	for _, k := range subschemaMaps {
		m, _ := obj[k].(map[string]any)
		if len(m) == 0 {
			continue
		}
		under := member(path, k)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if isSchema(m[name]) {
				visit(m[name], member(under, name), k)
			}
		}
	}
	for _, k := range subschemaArrays {
		arr, _ := obj[k].([]any)
		if len(arr) == 0 {
			continue
		}
		under := member(path, k)
		for i, v := range arr {
			if isSchema(v) {
				visit(v, index(under, i), k)
			}
		}
	}
	for _, k := range subschemaOnes {
		v, ok := obj[k]
		if !ok {
			continue
		}
		if arr, isArr := v.([]any); isArr && k == "items" { // the older drafts' tuple form
			for i, sub := range arr {
				if isSchema(sub) {
					visit(sub, index(member(path, k), i), k)
				}
			}
			continue
		}
		if isSchema(v) {
			visit(v, member(path, k), k)
		}
	}
}

// declaresID reports whether any schema under root declares a non-empty
// $id: then a $ref to an absolute URI may resolve inside the document.
func declaresID(root any) bool {
	found := false
	walkSchema(root, "", func(n schemaNode) {
		if obj, ok := n.value.(map[string]any); ok {
			if id, _ := obj["$id"].(string); id != "" {
				found = true
			}
		}
	})
	return found
}
