package lint

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxDescription is the longest description, in characters, that passes
// without a note. Every tool's description sits in the model's context
// in every conversation: 1,024 characters are ~250 tokens, about a
// seventh of the whole catalog of a median public MCP server (~1.7k
// tokens), which is a lot for one entry.
const maxDescription = 1024

// checkDescriptions reports missing, duplicated and overlong
// descriptions of every kind of entry, and undescribed tool parameters
// and prompt arguments.
func checkDescriptions(o *offer, r *report) {
	for k, list := range o.entries {
		seen := map[string]*entry{}
		for _, e := range list {
			if e.obj == nil {
				continue
			}
			d, _ := e.str("description")
			path := member(e.path, "description")
			switch {
			case strings.TrimSpace(d) == "" && k == int(kindTool):
				r.add("tool-description-missing", e, path, "the tool has no description, so a model must guess what it does from its name", "")
			case strings.TrimSpace(d) == "":
				r.add("description-missing", e, path, fmt.Sprintf("the %s has no description", noun[k]), "")
			default:
				key := normalized(d)
				if f, dup := seen[key]; dup {
					r.add("description-duplicate", e, path, fmt.Sprintf("the description is the same as that of %s", f.subject()), "")
				} else {
					seen[key] = e
				}
				if n := utf8.RuneCountInString(d); n > maxDescription {
					r.add("description-too-long", e, path, fmt.Sprintf("the description is %d characters long (more than %d)", n, maxDescription), "")
				}
			}
		}
	}
	checkParameterDescriptions(o, r)
}

// checkParameterDescriptions reports the top-level tool parameters and
// the prompt arguments that have no description.
func checkParameterDescriptions(o *offer, r *report) {
	for _, e := range o.entries[kindTool] {
		schema, _ := e.obj["inputSchema"].(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		for _, name := range sortedKeys(props) {
			p, ok := props[name].(map[string]any)
			if !ok {
				continue
			}
			if d, _ := p["description"].(string); strings.TrimSpace(d) == "" {
				path := member(member(member(e.path, "inputSchema"), "properties"), name)
				r.add("parameter-description-missing", e, path, fmt.Sprintf("the parameter %s has no description", quote(name)), "")
			}
		}
	}
	for _, e := range o.entries[kindPrompt] {
		args, _ := e.obj["arguments"].([]any)
		for i, a := range args {
			arg, _ := a.(map[string]any)
			name, _ := arg["name"].(string)
			if d, _ := arg["description"].(string); arg != nil && name != "" && strings.TrimSpace(d) == "" {
				r.add("parameter-description-missing", e, index(member(e.path, "arguments"), i), fmt.Sprintf("the argument %s has no description", quote(name)), "")
			}
		}
	}
}
