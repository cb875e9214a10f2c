package lint

import (
	"fmt"

	"github.com/yosida95/uritemplate/v3"
)

// checkPromptArguments reports prompt arguments that are not objects,
// have no name, or are declared twice.
func checkPromptArguments(o *offer, r *report) {
	for _, e := range o.entries[kindPrompt] {
		raw, present := e.obj["arguments"]
		if !present || raw == nil {
			continue
		}
		path := member(e.path, "arguments")
		args, ok := raw.([]any)
		if !ok {
			r.add("prompt-argument-malformed", e, path, fmt.Sprintf("arguments is %s, not an array", jsonKind(raw)), "")
			continue
		}
		seen := map[string]int{}
		for i, a := range args {
			at := index(path, i)
			arg, ok := a.(map[string]any)
			if !ok {
				r.add("prompt-argument-malformed", e, at, fmt.Sprintf("the argument is %s, not an object", jsonKind(a)), "")
				continue
			}
			name, _ := arg["name"].(string)
			if name == "" {
				r.add("prompt-argument-malformed", e, member(at, "name"), "the argument has no name, so a client cannot pass it", "")
				continue
			}
			if req, present := arg["required"]; present {
				if _, ok := req.(bool); !ok {
					r.add("prompt-argument-malformed", e, member(at, "required"), fmt.Sprintf("required is %s, not a boolean", jsonKind(req)), "")
				}
			}
			if first, dup := seen[name]; dup {
				r.add("prompt-argument-duplicate", e, member(at, "name"), fmt.Sprintf("the argument %s is declared twice (first at %s)", quote(name), index(path, first)), "")
				continue
			}
			seen[name] = i
		}
	}
}

// checkTemplates reports resource templates whose uriTemplate is not an
// RFC 6570 template, or has no variable at all (then it is a resource).
func checkTemplates(o *offer, r *report) {
	for _, e := range o.entries[kindTemplate] {
		s, ok := e.str("uriTemplate")
		if !ok || s == "" {
			continue // listing-malformed
		}
		path := member(e.path, "uriTemplate")
		t, err := uritemplate.New(s)
		if err != nil {
			r.add("template-invalid", e, path, fmt.Sprintf("the uriTemplate %s is not an RFC 6570 URI template: %s", quote(s), quote(err.Error())), "")
			continue
		}
		if len(t.Varnames()) == 0 {
			r.add("template-no-variables", e, path, fmt.Sprintf("the uriTemplate %s has no {variable}, so it names one resource", quote(s)), "")
		}
	}
}
