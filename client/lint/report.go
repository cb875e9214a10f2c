package lint

import "fmt"

// found is a finding and where its entry stands in the listing.
type found struct {
	Finding
	order int
}

// report collects the findings of one Check.
type report struct {
	found []found
}

// add records a finding of the rule id about e at path. fix, when empty,
// is the rule's usual fix. An id Rules does not list is a mistake of
// mcpscope's; it is reported as such rather than dropped.
func (r *report) add(id string, e *entry, path, msg, fix string) {
	rule, ok := ruleByID[id]
	if !ok {
		rule = Rule{ID: id, Severity: SeverityError}
		msg = fmt.Sprintf("unlisted lint rule: %s", msg)
	}
	if fix == "" {
		fix = rule.Fix
	}
	r.found = append(r.found, found{
		Finding: e.about(Finding{Rule: id, Severity: rule.Severity, Path: path, Message: msg, Fix: fix}),
		order:   e.order,
	})
}
