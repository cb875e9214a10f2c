package lint

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mcpscope/mcpscope/client/findings"
)

// wirePrefix starts the id of each rule that reports a finding the lint
// session met on the wire (client/findings): "wire-stdout-not-json".
const wirePrefix = "wire-"

// wireRules are the rules of the wire findings, one per findings code but
// x-mcp-header-invalid, which lint checks in the listing itself.
func wireRules() []Rule {
	var out []Rule
	for _, c := range findings.Codes() {
		if c.ID == findings.CodeParamHeaderInvalid {
			continue
		}
		out = append(out, Rule{ID: wirePrefix + c.ID, Severity: wireSeverity(c.Severity), Summary: "on the wire: " + c.Meaning, Fix: c.Fix})
	}
	return out
}

// wireSeverity is lint's severity of a finding's: a note is info.
func wireSeverity(s findings.Severity) Severity {
	switch s {
	case findings.Error:
		return SeverityError
	case findings.Warning:
		return SeverityWarning
	}
	return SeverityInfo
}

// WithWire adds to the findings of Check those the lint session met on
// the wire (client/findings), each as a finding of its wire-* rule about
// its frame, and orders them all worst first as Check does.
func WithWire(checked []Finding, met []findings.Finding) []Finding {
	out := slices.Clone(checked)
	for _, m := range met {
		rule, ok := ruleByID[wirePrefix+m.Code]
		if !ok {
			continue // x-mcp-header-invalid: Check reports it
		}
		path := ""
		if m.Path != "" {
			path = "$." + m.Path
		}
		out = append(out, Finding{Rule: rule.ID, Severity: rule.Severity, Subject: fmt.Sprintf("frame %d", m.Seq),
			Path: path, Message: m.Summary, Fix: rule.Fix})
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return cmp.Compare(a.Severity.rank(), b.Severity.rank()) })
	return out
}
