package findings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocListsEveryCode keeps docs/findings.md in step with Codes: a
// table row for each code with its severity, and codes unique.
func TestDocListsEveryCode(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "findings.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range Codes() {
		if row := "| `" + c.ID + "` | " + c.Severity.String() + " |"; !strings.Contains(string(doc), row) {
			t.Errorf("docs/findings.md has no row %q", row)
		}
		if seen[c.ID] || c.Meaning == "" || c.Fix == "" {
			t.Errorf("code %q repeated or incomplete", c.ID)
		}
		seen[c.ID] = true
	}
}
