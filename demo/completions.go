package demo

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// complete answers completion/complete for the demo's prompts and its
// resource template: the values that start with what is typed (case
// folded), narrowed by the other arguments given in context.
func complete(params json.RawMessage) (any, *jsonrpc.Error) {
	var p mcp.CompleteParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, invalidParams("completion/complete params are malformed: %v", err)
	}
	var others map[string]string
	if p.Context != nil {
		others = p.Context.Arguments
	}
	var candidates []string
	switch {
	case p.Ref.Type == "ref/prompt" && p.Ref.Name == "review_template" && p.Argument.Name == "uri":
		for _, t := range builtinTemplates {
			candidates = append(candidates, t.URI)
		}
	case p.Ref.Type == "ref/prompt" && p.Ref.Name == "plan_scaffold" && p.Argument.Name == "toolchain":
		candidates = templateParts("toolchain", nil)
	case p.Ref.Type == "ref/prompt" && !slices.ContainsFunc(demoPrompts, func(d mcp.Prompt) bool { return d.Name == p.Ref.Name }):
		return nil, invalidParams("unknown prompt %q; prompts/list names the prompts", p.Ref.Name)
	case p.Ref.Type == "ref/resource" && p.Ref.URI == builtinTemplateURI:
		candidates = templateParts(p.Argument.Name, others)
	case p.Ref.Type == "ref/resource":
		return nil, invalidParams("unknown resource template %q; resources/templates/list names it", p.Ref.URI)
	case p.Ref.Type != "ref/prompt":
		return nil, invalidParams("unknown reference type %q: ref/prompt or ref/resource", p.Ref.Type)
	}
	values := []string{}
	typed := strings.ToLower(p.Argument.Value)
	for _, c := range candidates {
		if strings.HasPrefix(strings.ToLower(c), typed) {
			values = append(values, c)
		}
	}
	total := len(values)
	return mcp.CompleteResult{Completion: mcp.Completion{Values: values, Total: &total}}, nil
}

// templateParts lists, once each and in the template set's order, the
// values of one variable of template://{category}/{toolchain}/{variant}
// among the built-in templates that agree with the other variables given.
func templateParts(name string, others map[string]string) []string {
	var out []string
	for _, t := range builtinTemplates {
		parts := templateVars(t.URI)
		v, ok := parts[name]
		if !ok || slices.Contains(out, v) {
			continue
		}
		if agrees(parts, name, others) {
			out = append(out, v)
		}
	}
	return out
}

// agrees reports whether a template's variables match every other
// variable given (an empty value matches any).
func agrees(parts map[string]string, name string, others map[string]string) bool {
	for k, want := range others {
		if got, known := parts[k]; known && k != name && want != "" && got != want {
			return false
		}
	}
	return true
}

// templateVars splits a built-in template's URI into its variables.
func templateVars(uri string) map[string]string {
	parts := strings.SplitN(strings.TrimPrefix(uri, "template://"), "/", 3)
	if len(parts) != 3 {
		return nil
	}
	return map[string]string{"category": parts[0], "toolchain": parts[1], "variant": parts[2]}
}
