package lint

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

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

// placeholder is a {name} a description mentions: a variable or an
// argument it refers to (JSON such as {"a": 1} does not match).
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`) }) // compiled on first use

// checkUndeclaredArguments reports a {name} in a prompt's or a resource
// template's description that names none of the prompt's arguments or
// the template's variables: a model that reads it passes an argument the
// server does not take.
func checkUndeclaredArguments(o *offer, r *report) {
	for _, k := range []kind{kindPrompt, kindTemplate} {
		for _, e := range o.entries[k] {
			d, _ := e.str("description")
			if !strings.Contains(d, "{") {
				continue
			}
			declared := declaredNames(e)
			if declared == nil {
				continue // the template does not parse: template-invalid
			}
			for _, m := range placeholder().FindAllStringSubmatch(d, -1) {
				if !declared[m[1]] {
					declared[m[1]] = true // once a name
					r.add("argument-undeclared", e, member(e.path, "description"),
						fmt.Sprintf("the description mentions {%s}, which the %s does not declare", m[1], noun[e.kind]), "")
				}
			}
		}
	}
}

// declaredNames are a prompt's argument names or a template's variable
// names; nil when a template's uriTemplate cannot be read.
func declaredNames(e *entry) map[string]bool {
	names := map[string]bool{}
	if e.kind == kindPrompt {
		args, _ := e.obj["arguments"].([]any)
		for _, a := range args {
			arg, _ := a.(map[string]any)
			if name, ok := arg["name"].(string); ok {
				names[name] = true
			}
		}
		return names
	}
	s, _ := e.str("uriTemplate")
	t, err := uritemplate.New(s)
	if err != nil {
		return nil
	}
	for _, v := range t.Varnames() {
		names[v] = true
	}
	return names
}
