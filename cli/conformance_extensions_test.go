package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// extensionCommands maps the harness's extension client scenarios that
// mcpscope implements to the command line a user would type for each
// (the harness appends the server's URL): the Skills scenarios run one
// script that lists (no-prefetch) or verifies (the verify-* ones, which
// serve a tampered SKILL.md); the client_credentials one authorizes as a
// confidential client with the credentials the harness hands out.
func extensionCommands(t *testing.T) map[string]string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "sep2640-client.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"sep-2640-client-no-prefetch":        script,
		"sep-2640-client-verify-digest":      script,
		"sep-2640-client-verify-size":        script,
		"sep-2640-client-verify-frontmatter": script,
		"auth/client-credentials-basic": harnessToolCall("test-tool", "{}") + " --client-credentials" +
			` --client-id "$(` + fromContext("ctx.client_id") + `)" --client-secret "$(` + fromContext("ctx.client_secret") + `)"`,
	}
}

// TestConformanceHarnessExtensions runs the conformance harness's
// extension client scenarios mcpscope implements, with mcpscope as the
// client: for Skills, listing reads no file, and a tampered SKILL.md
// (digest, size, front matter) is read, rejected, and its skill read no
// further; for client credentials, the token comes from the
// client_credentials grant with client_secret_basic.
func TestConformanceHarnessExtensions(t *testing.T) {
	t.Parallel()
	harness := peertest.ConformanceHarness(t)
	bin := builtBinary(t)
	browser := oauthtest.BrowserProgram(t)
	commands := extensionCommands(t)
	results := map[string]harnessResult{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, command := range commands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// An extension scenario is on no spec version's timeline.
			r := runHarnessScenario(t, harness, harnessScenario{name: name}, command, filepath.Dir(bin), browser)
			mu.Lock()
			results[name] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	for name := range commands {
		if r := results[name]; !r.ok {
			t.Errorf("%s failed:\n%s", name, r.report)
		}
	}
}

// --client-credentials is a confidential client's grant: without a
// secret it is a usage error, before anything connects.
func TestClientCredentialsNeedsASecret(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--client-credentials"}, {"--client-credentials", "--client-id", "c"}} {
		r := mcpscope(t, append(append([]string{"tools"}, args...), "http://127.0.0.1:1/mcp")...)
		r.mustExit(t, ExitUsage)
		if !strings.Contains(r.stderr, "--client-credentials needs --client-id and --client-secret") {
			t.Errorf("%v: %s", args, r.stderr)
		}
	}
}
