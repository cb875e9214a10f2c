package lint

import (
	"fmt"
	"strings"
)

// checkSchemaRoot checks that a tool schema is an object schema of type
// "object", as MCP's tool definition asks; it reports whether the schema
// is an object the other rules can read. From 2026-07-28 (SEP-2106) an
// outputSchema may describe any JSON value: that is only a warning,
// since clients of the earlier revisions refuse it.
func checkSchemaRoot(o *offer, e *entry, r *report, side schemaSide, schema any, present bool, path string) bool {
	obj, isObj := schema.(map[string]any)
	_, isBool := schema.(bool)
	anyOutput := side.member == "outputSchema" && o.modern()
	switch {
	case !present:
		r.add(side.rootID, e, path, "the tool has no "+side.member+"; MCP requires one", "")
		return false
	case anyOutput && isBool:
		r.add("output-schema-not-object", e, path, fmt.Sprintf("outputSchema is the boolean schema %t", schema), "")
		return false
	case !isObj:
		r.add(side.rootID, e, path, fmt.Sprintf("%s is %s, not a JSON Schema object", side.member, jsonKind(schema)), "")
		return false
	}
	if t, _ := obj["type"].(string); t != "object" {
		id := side.rootID
		if anyOutput {
			id = "output-schema-not-object"
		}
		r.add(id, e, path, fmt.Sprintf("%s has type %s at its root, not \"object\"", side.member, describeValue(obj["type"])), "")
	}
	return true
}

// checkRootComposition reports a root oneOf/anyOf/allOf, which the
// Anthropic API refuses in a tool's input schema: a host that passes the
// tool on fails the whole request, and recent Claude Code leaves the
// tool out instead.
func checkRootComposition(e *entry, r *report, root map[string]any, path string) {
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if _, ok := root[k]; ok {
			r.add("schema-root-composition", e, member(path, k), k+" at the root of an input schema is refused by the Anthropic API: a host that sends the tool fails the request, and Claude Code fails it or leaves the tool out", "")
		}
	}
}

// checkStrictReady reports, once per input schema, what keeps it from
// OpenAI's strict function calling: every object needs
// additionalProperties false and every property listed in required.
func checkStrictReady(e *entry, r *report, root map[string]any, path string) {
	props, _ := root["properties"].(map[string]any)
	var why []string
	if ap, ok := root["additionalProperties"].(bool); !ok || ap {
		why = append(why, "additionalProperties is not false")
	}
	if optional := len(props) - declaredRequired(root, props); optional > 0 {
		why = append(why, fmt.Sprintf("%d of %d properties are optional", optional, len(props)))
	}
	if len(why) > 0 {
		r.add("schema-strict-mode", e, path, "OpenAI's strict function calling would refuse the schema as it is: "+strings.Join(why, ", "), "")
	}
}

// declaredRequired counts the distinct required names that props
// declares.
func declaredRequired(obj map[string]any, props map[string]any) int {
	req, _ := obj["required"].([]any)
	seen := make(map[string]bool, min(len(req), len(props)))
	for _, v := range req {
		if s, ok := v.(string); ok {
			if _, ok := props[s]; ok {
				seen[s] = true
			}
		}
	}
	return len(seen)
}
