package lint

import "fmt"

// hints are the boolean members of a tool's annotations.
var hints = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// checkAnnotations reports annotations of the wrong type, hints that
// contradict each other, and a title that differs from annotations.title.
func checkAnnotations(o *offer, r *report) {
	for _, e := range o.entries[kindTool] {
		raw, present := e.obj["annotations"]
		if !present || raw == nil {
			continue
		}
		path := member(e.path, "annotations")
		ann, ok := raw.(map[string]any)
		if !ok {
			r.add("annotation-type", e, path, fmt.Sprintf("annotations is %s, not an object", jsonKind(raw)), "")
			continue
		}
		set := map[string]bool{}
		for _, h := range hints {
			v, present := ann[h]
			if !present {
				continue
			}
			b, ok := v.(bool)
			if !ok {
				r.add("annotation-type", e, member(path, h), fmt.Sprintf("%s is %s, not a boolean; clients ignore or refuse it", h, jsonKind(v)), "")
				continue
			}
			if b {
				set[h] = true
			} else {
				set["!"+h] = true
			}
		}
		if t, present := ann["title"]; present {
			if _, ok := t.(string); !ok {
				r.add("annotation-type", e, member(path, "title"), fmt.Sprintf("title is %s, not a string", jsonKind(t)), "")
			}
		}
		if set["readOnlyHint"] && set["destructiveHint"] {
			r.add("annotation-contradiction", e, member(path, "destructiveHint"), "the tool says it is read-only and also destructive; a client cannot tell whether to ask before calling it", "")
		}
		if set["readOnlyHint"] && set["!idempotentHint"] {
			r.add("annotation-ignored", e, member(path, "idempotentHint"), "idempotentHint false on a read-only tool: the hint counts only when readOnlyHint is false, and a tool that changes nothing is idempotent", "")
		}
		title, _ := e.str("title")
		annTitle, _ := ann["title"].(string)
		if title != "" && annTitle != "" && title != annTitle {
			r.add("title-mismatch", e, member(path, "title"), fmt.Sprintf("title %s differs from annotations.title %s; clients show one or the other", quote(title), quote(annTitle)), "")
		}
	}
}
