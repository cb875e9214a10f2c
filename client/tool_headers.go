package client

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// tokenName is RFC 9110's token: what an x-mcp-header name must be.
var tokenName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// paramBinding is one tool parameter the 2026-07-28 revision mirrors into
// an Mcp-Param-{Name} header (the property's x-mcp-header annotation).
type paramBinding struct {
	header string   // the annotation: the header is Mcp-Param-{header}
	path   []string // the property names from the arguments' root
}

// instanceKeywords are the JSON Schema keywords whose values are instances,
// not schemas: an "x-mcp-header" member inside them is data.
var instanceKeywords = map[string]bool{"const": true, "default": true, "enum": true, "examples": true}

// scanBindings finds the x-mcp-header annotations of a tool's input
// schema. Only properties reached through "properties" keys count; an
// annotation anywhere else (items, a composition or conditional keyword,
// $defs…), a name that is not an HTTP token, a name used twice
// (case-insensitively) or a property whose type is not string, integer or
// boolean (2026-07-28 rules out number) makes the whole tool's annotations
// invalid.
func scanBindings(schema json.RawMessage) ([]paramBinding, error) {
	var root any
	if len(schema) == 0 || json.Unmarshal(schema, &root) != nil {
		return nil, nil
	}
	var out []paramBinding
	seen := map[string]bool{}
	var walk func(node any, path []string, reachable bool, depth int) error
	walk = func(node any, path []string, reachable bool, depth int) error {
		obj, ok := node.(map[string]any)
		if !ok || depth > 32 {
			return nil
		}
		if raw, ok := obj["x-mcp-header"]; ok {
			name, isString := raw.(string)
			switch typ, _ := obj["type"].(string); {
			case !reachable || len(path) == 0:
				return fmt.Errorf("an x-mcp-header annotation under %q is not reachable through properties", strings.Join(path, "."))
			case !isString || !tokenName.MatchString(name):
				return fmt.Errorf("the x-mcp-header of %q is not an HTTP token: %q", strings.Join(path, "."), raw)
			case seen[strings.ToLower(name)]:
				return fmt.Errorf("the x-mcp-header name %q is used twice", name)
			case typ != "string" && typ != "integer" && typ != "boolean":
				return fmt.Errorf("the x-mcp-header property %q has type %q, not string, integer or boolean", strings.Join(path, "."), typ)
			}
			seen[strings.ToLower(name)] = true
			out = append(out, paramBinding{header: name, path: append([]string(nil), path...)})
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) { // sorted: the same reason every time
			v := obj[k]
			if instanceKeywords[k] {
				continue
			}
			if k == "properties" {
				props, _ := v.(map[string]any)
				for _, name := range slices.Sorted(maps.Keys(props)) {
					if err := walk(props[name], append(path, name), reachable, depth+1); err != nil {
						return err
					}
				}
				continue
			}
			if sub, ok := v.(map[string]any); ok && k != "x-mcp-header" {
				if err := walk(sub, append(path, "("+k+")"), false, depth+1); err != nil {
					return err
				}
			}
			if arr, ok := v.([]any); ok {
				for _, sub := range arr {
					if err := walk(sub, append(path, "("+k+")"), false, depth+1); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return out, walk(root, nil, true, 0)
}

// argumentAt is the argument at path as header text; ok is false when it
// is absent, null or not a primitive.
func argumentAt(args map[string]any, path []string) (string, bool) {
	var cur any = args
	for _, p := range path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		cur = obj[p]
	}
	switch v := cur.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	return "", false
}
