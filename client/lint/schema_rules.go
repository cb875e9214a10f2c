package lint

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// constraining are the keywords that restrict which values a schema
// accepts: a schema with none of them accepts anything. if/then/else
// count only as a pair (checked apart).
var constraining = map[string]bool{
	"type": true, "enum": true, "const": true, "multipleOf": true, "maximum": true, "exclusiveMaximum": true,
	"minimum": true, "exclusiveMinimum": true, "maxLength": true, "minLength": true, "pattern": true, "format": true,
	"contentMediaType": true, "contentEncoding": true, "contentSchema": true, "maxItems": true, "minItems": true,
	"uniqueItems": true, "maxContains": true, "minContains": true, "maxProperties": true, "minProperties": true,
	"required": true, "dependentRequired": true, "allOf": true, "anyOf": true, "oneOf": true, "not": true,
	"items": true, "prefixItems": true, "contains": true, "additionalItems": true, "unevaluatedItems": true,
	"properties": true, "patternProperties": true, "additionalProperties": true, "unevaluatedProperties": true,
	"propertyNames": true, "dependentSchemas": true, "dependencies": true, "$ref": true, "$dynamicRef": true,
	"$recursiveRef": true,
}

// jsonTypes are JSON Schema's type names.
var jsonTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

// schemaSide is one of a tool's two schemas.
type schemaSide struct {
	member string // "inputSchema" or "outputSchema"
	rootID string // the rule about its root
}

var sides = []schemaSide{{"inputSchema", "input-schema-root"}, {"outputSchema", "output-schema-root"}}

// checkToolSchemas applies the schema rules to every tool's input and
// output schema.
func checkToolSchemas(o *offer, r *report) {
	for _, e := range o.entries[kindTool] {
		if e.obj == nil {
			continue
		}
		for _, side := range sides {
			schema, present := e.obj[side.member]
			if !present && side.member == "outputSchema" {
				continue
			}
			path := member(e.path, side.member)
			if !checkSchemaRoot(o, e, r, side, schema, present, path) {
				continue
			}
			checkSchema(e, r, schema.(map[string]any), path, side, o.modern())
		}
	}
}

// checkSchema applies the rules that read a whole schema: the Inspector's
// portability checks on every subschema, and the cross-client quirks.
// modern is whether the session speaks 2026-07-28 or later.
func checkSchema(e *entry, r *report, root map[string]any, path string, side schemaSide, modern bool) {
	hasIDs := declaresID(root)
	remote, refs := 0, 0
	tooDeep := walkSchema(root, path, func(n schemaNode) {
		if b, ok := n.value.(bool); ok {
			if !booleanAllowed[n.keyword] {
				r.add("schema-boolean", e, n.path, fmt.Sprintf("a bare %t stands where a schema object is expected", b), booleanFix(b, n.keyword))
			}
			return
		}
		obj := n.value.(map[string]any)
		if types, ok := obj["type"].([]any); ok && typeUnion(types) {
			r.add("schema-type-union", e, n.path, fmt.Sprintf("type is a list (%s): clients that map a schema to one type per value (Gemini's function declarations, OpenAPI-style converters) reject it or drop the constraint", typeList(types)), "")
		}
		if ref, ok := obj["$ref"].(string); ok && ref != "" {
			refs++
			if !strings.HasPrefix(ref, "#") && !hasIDs {
				remote++
				r.add("schema-remote-ref", e, n.path, "$ref points outside the schema ("+termtext.QuoteMax(ref, keyMax)+"); "+remoteRefEffect(modern), "")
			}
		}
		if n.keyword != "not" && !constrains(obj) {
			r.add("schema-untyped", e, n.path, "the schema has no validation keyword, so it accepts any value", "")
		}
		checkNodeTypes(e, r, obj, n.path)
		checkRequired(e, r, obj, n)
	})
	if tooDeep {
		r.add("schema-too-deep", e, path, fmt.Sprintf("the schema nests deeper than %d levels; mcpscope read the first %d", maxSchemaDepth, maxSchemaDepth), "")
	}
	if refs > remote {
		r.add("schema-local-ref", e, path, fmt.Sprintf("the schema uses $ref (%s); some clients and models do not resolve references and see the referenced values as untyped", plural.Count(refs-remote, "time", "")), "")
	}
	if side.member == "inputSchema" {
		checkRootComposition(e, r, root, path)
		checkStrictReady(e, r, root, path)
	}
	if !tooDeep && remote == 0 && e.depth <= 4*maxSchemaDepth {
		checkCompiles(e, r, root, path)
	}
}

// remoteRefEffect is what clients do with a $ref outside the schema. The
// 2026-07-28 revision ("$ref Resolution") forbids fetching a network
// $ref by default and asks that a schema whose external $ref does not
// resolve be rejected rather than read as permissive.
func remoteRefEffect(modern bool) string {
	if modern {
		return "2026-07-28 clients must not fetch it by default and should reject the schema when it does not resolve"
	}
	return "clients fetch no remote schema"
}

// constrains reports whether a schema restricts the values it accepts.
func constrains(obj map[string]any) bool {
	for k := range obj {
		if constraining[k] {
			return true
		}
	}
	_, hasIf := obj["if"]
	_, hasThen := obj["then"]
	_, hasElse := obj["else"]
	return hasIf && (hasThen || hasElse)
}

// typeUnion reports whether a type list is a well-formed union (known,
// distinct names); a malformed one is schema-invalid's.
func typeUnion(types []any) bool {
	seen := map[string]bool{}
	for _, t := range types {
		s, ok := t.(string)
		if !ok || !jsonTypes[s] || seen[s] {
			return false
		}
		seen[s] = true
	}
	return len(types) > 0
}

// booleanFix is how to replace a bare boolean schema.
func booleanFix(b bool, keyword string) string {
	switch {
	case !b:
		return `write {"not": {}}, the object form of false (deleting the entry would allow any value instead)`
	case keyword == "not":
		return "write {}, the object form of true"
	}
	return `declare what the value is, e.g. {"type": "object"} for a free-form object`
}

// checkCompiles reports a schema that breaks its draft's meta-schema.
func checkCompiles(e *entry, r *report, root map[string]any, path string) {
	raw, err := json.Marshal(root)
	if err != nil {
		return
	}
	if _, err := schemacheck.Compile(raw); err != nil {
		r.add("schema-invalid", e, path, "the schema is not valid JSON Schema: "+termtext.OneLine(err.Error()), "")
	}
}

// checkRequired reports required names that an object schema does not
// declare in its properties; Gemini refuses such a schema. A schema
// without properties under a composition keyword (a branch that only
// makes its parent's properties required) is left alone.
func checkRequired(e *entry, r *report, obj map[string]any, n schemaNode) {
	req, ok := obj["required"].([]any)
	if !ok || len(req) == 0 {
		return
	}
	props, hasProps := obj["properties"].(map[string]any)
	if !hasProps && (n.depth > 0 || obj["type"] != "object") {
		return
	}
	var missing []string
	undeclared := 0
	for _, v := range req {
		if s, ok := v.(string); ok {
			if _, ok := props[s]; !ok {
				undeclared++
				if len(missing) < maxNamesListed {
					missing = append(missing, termtext.QuoteMax(s, keyMax))
				}
			}
		}
	}
	if undeclared > len(missing) {
		missing = append(missing, fmt.Sprintf("and %d more", undeclared-len(missing)))
	}
	if undeclared > 0 {
		r.add("schema-required-undeclared", e, member(n.path, "required"), "required names properties the schema does not declare: "+strings.Join(missing, ", "), "")
	}
}

// maxNamesListed is the most names one message lists; it counts the rest.
const maxNamesListed = 10

// jsonKind names the JSON kind of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// describeValue shows a small decoded value in a message, safely.
func describeValue(v any) string {
	if v == nil {
		return "missing"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return jsonKind(v)
	}
	return termtext.LineMax(string(b), keyMax)
}

// typeList shows a list of type names.
func typeList(types []any) string {
	var names []string
	for _, t := range types {
		names = append(names, fmt.Sprint(t))
	}
	return strings.Join(names, ", ")
}

// sortedKeys are the keys of m in order.
func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
