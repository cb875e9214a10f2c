package cli

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// skillScenarios are the harness's client scenarios of the Skills
// extension.
var skillScenarios = []string{
	"sep-2640-client-no-prefetch",
	"sep-2640-client-verify-digest",
	"sep-2640-client-verify-size",
	"sep-2640-client-verify-frontmatter",
}

// TestConformanceHarnessSkills runs the conformance harness's Skills
// client scenarios with mcpscope as the client: listing reads no file,
// and a tampered SKILL.md (digest, size, front matter) is read, rejected,
// and its skill read no further.
func TestConformanceHarnessSkills(t *testing.T) {
	t.Parallel()
	harness := peertest.ConformanceHarness(t)
	bin := builtBinary(t)
	browser := oauthtest.BrowserProgram(t)
	script, err := filepath.Abs(filepath.Join("testdata", "sep2640-client.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatal(err)
	}
	results := make([]harnessResult, len(skillScenarios))
	var wg sync.WaitGroup
	for i, name := range skillScenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runHarnessScenario(t, harness, harnessScenario{name: name}, script, filepath.Dir(bin), browser)
		}()
	}
	wg.Wait()
	for i, name := range skillScenarios {
		if !results[i].ok {
			t.Errorf("%s failed:\n%s", name, results[i].report)
		}
	}
}
