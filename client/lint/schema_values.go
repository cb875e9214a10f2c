package lint

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// declaredTypes are the type names a schema declares, or nil.
func declaredTypes(obj map[string]any) []string {
	switch t := obj["type"].(type) {
	case string:
		if jsonTypes[t] {
			return []string{t}
		}
	case []any:
		var out []string
		for _, v := range t {
			if s, ok := v.(string); ok && jsonTypes[s] {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// hasType reports whether the decoded value v is of the JSON Schema type t.
func hasType(v any, t string) bool {
	switch v := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case json.Number:
		return t == "number" || t == "integer" && isInteger(v)
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

// isInteger reports whether n has no fractional part (1.0 counts, as
// JSON Schema says).
func isInteger(n json.Number) bool {
	if _, err := n.Int64(); err == nil {
		return true
	}
	f, err := n.Float64()
	return err == nil && f == float64(int64(f))
}

// ofAny reports whether v is of one of types.
func ofAny(v any, types []string) bool {
	for _, t := range types {
		if hasType(v, t) {
			return true
		}
	}
	return false
}

// checkNodeTypes checks a schema's values against its own type: enum
// members and the default must be of it, the default among the enum, and
// an array must say what its items are (OpenAI's function calling and
// VS Code's Copilot refuse an array schema without items).
func checkNodeTypes(e *entry, r *report, obj map[string]any, path string) {
	types := declaredTypes(obj)
	enum, hasEnum := obj["enum"].([]any)
	if len(types) > 0 && hasEnum {
		for i, v := range enum {
			if !ofAny(v, types) {
				r.add("schema-enum-type", e, index(member(path, "enum"), i), fmt.Sprintf("the enum value %s is not of the schema's type (%s)", describeValue(v), strings.Join(types, ", ")), "")
			}
		}
	}
	if d, ok := obj["default"]; ok {
		switch {
		case len(types) > 0 && !ofAny(d, types):
			r.add("schema-default-type", e, member(path, "default"), fmt.Sprintf("the default %s is not of the schema's type (%s)", describeValue(d), strings.Join(types, ", ")), "")
		case hasEnum && !inEnum(d, enum):
			r.add("schema-default-type", e, member(path, "default"), fmt.Sprintf("the default %s is not one of the enum's values", describeValue(d)), "")
		}
	}
	for _, t := range types {
		if t != "array" {
			continue
		}
		_, items := obj["items"]
		_, prefix := obj["prefixItems"]
		if !items && !prefix {
			r.add("schema-array-items", e, path, "an array schema without items: OpenAI's function calling and VS Code's Copilot refuse the tool", "")
		}
	}
}

// inEnum reports whether v equals a member of enum (numbers by value).
func inEnum(v any, enum []any) bool {
	for _, m := range enum {
		if equalJSON(v, m) {
			return true
		}
	}
	return false
}

// equalJSON compares two decoded values, numbers by value.
func equalJSON(a, b any) bool {
	na, aNum := a.(json.Number)
	nb, bNum := b.(json.Number)
	if aNum && bNum {
		fa, errA := na.Float64()
		fb, errB := nb.Float64()
		return errA == nil && errB == nil && fa == fb
	}
	return reflect.DeepEqual(a, b)
}
