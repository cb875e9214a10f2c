package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/lint"
)

// Info findings fold to one line a rule at text, cut to a line; verbose
// text and JSON keep every one.
func TestTextFoldsInfoFindings(t *testing.T) {
	r := sample()
	for i := range 40 {
		r.Findings = append(r.Findings, lint.Finding{Rule: "schema-strict-mode", Severity: lint.SeverityInfo,
			Subject: fmt.Sprintf(`tool "tool-%d"`, i), Kind: "tool", Name: fmt.Sprintf("tool-%d", i), Path: "$.tools[0]", Message: "m"})
	}
	var b bytes.Buffer
	if err := Write(&b, Text, r, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "schema-strict-mode") {
			if line != "" {
				t.Fatalf("two lines for one rule:\n%s", out)
			}
			line = l
		}
	}
	if !strings.HasPrefix(line, "  schema-strict-mode (40): tool-0, tool-1, ") || !strings.HasSuffix(line, ", …") || len(line) > 120 {
		t.Errorf("folded line %q", line)
	}
	if !strings.Contains(out, "duplicate-tool-name  tool echo") {
		t.Errorf("errors are not printed in full:\n%s", out)
	}
	b.Reset()
	if err := Write(&b, Text, r, Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "schema-strict-mode"); n != 40 {
		t.Errorf("verbose text lists %d of 40", n)
	}
	b.Reset()
	if err := Write(&b, JSON, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `"rule":"schema-strict-mode"`); n != 40 {
		t.Errorf("JSON lists %d of 40", n)
	}
}
