package lint

import (
	"testing"

	"github.com/mcpscope/mcpscope/client/findings"
)

// Every findings code but x-mcp-header-invalid is a wire- rule of the
// same severity; a finding met on the wire is reported under it, errors
// first, and one of x-mcp-header-invalid is left to Check.
func TestWireFindings(t *testing.T) {
	for _, c := range findings.Codes() {
		r, ok := ruleByID[wirePrefix+c.ID]
		if c.ID == findings.CodeParamHeaderInvalid {
			if ok {
				t.Errorf("%s is a wire rule too", c.ID)
			}
			continue
		}
		if !ok || r.Severity != wireSeverity(c.Severity) || r.Fix == "" {
			t.Errorf("code %s: rule %+v", c.ID, r)
		}
	}
	checked := []Finding{{Rule: "schema-untyped", Severity: SeverityWarning}}
	met := []findings.Finding{
		{Severity: findings.Error, Code: findings.CodeStructuredInvalid, Summary: "bad", Seq: 7, Path: "result.structuredContent"},
		{Severity: findings.Error, Code: findings.CodeParamHeaderInvalid, Summary: "dup", Seq: 3},
	}
	got := WithWire(checked, met)
	if len(got) != 2 || got[0].Rule != "wire-structured-content-invalid" || got[0].Severity != SeverityError ||
		got[0].Subject != "frame 7" || got[0].Path != "$.result.structuredContent" || got[1].Rule != "schema-untyped" {
		t.Errorf("findings %+v", got)
	}
}
