package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The official conformance harness (@modelcontextprotocol/conformance,
// pinned in testdata/peers) runs each client scenario by starting a
// server of its own and the client command it is given with that
// server's URL appended; it then scores what crossed the wire. Here the
// command is mcpscope's own, as a user would type it for what the
// scenario asks (list the tools, call one, answer an elicitation).

// harnessCIMD is the Client ID Metadata Document URL the harness's
// authorization servers accept.
const harnessCIMD = "https://conformance-test.local/client-metadata.json"

// harnessToolCall is the mcpscope command line that calls tool with the JSON
// arguments args.
func harnessToolCall(tool, args string) string {
	return "mcpscope call tools/call " + shellQuote(fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args))
}

// perURL is a shell command line running script with the URL the harness
// appends as $1: a user's few commands against one server.
func perURL(script string) string { return "sh -c " + shellQuote(script) + " harness-client" }

// harnessAuth is what a user types for the authorization scenarios: call
// the scenario's tool, offering a Client ID Metadata Document.
var harnessAuth = harnessToolCall("test-tool", "{}") + " --client-metadata-url " + harnessCIMD

// fromContext is a node one-liner printing what expr (over ctx, the JSON
// context the harness gives a client: credentials, calls to make) says.
func fromContext(expr string) string {
	return `node -p "const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT); ` + expr + `"`
}

// harnessCommands maps a client scenario to the mcpscope command line a
// user would type for it (the harness appends the server's URL); a
// scenario not named here is an authorization one (auth/…), or fails the
// test as not mapped. answers is an answers file accepting every
// elicitation with the schema's defaults.
func harnessCommands(answers string) map[string]string {
	mrtr := "for tool in test_mrtr_echo_state test_mrtr_no_state test_mrtr_unrelated test_mrtr_no_result_type; do " +
		`mcpscope call tools/call "{\"name\":\"$tool\",\"arguments\":{}}" --answers ` + shellQuote(answers) + ` "$1" || exit; done`
	schemaEcho := `schema=$(mcpscope tools "$1" | node -e "let s = ''; process.stdin.on('data', d => s += d).on('end', () => ` +
		`console.log(JSON.stringify(JSON.parse(s).tools.find(t => t.name === 'json_schema_2020_12_tool').inputSchema)))") && ` +
		`mcpscope call tools/call "{\"name\":\"json_schema_echo\",\"arguments\":{\"schema\":$schema}}" "$1"`
	contextCalls := fromContext(`ctx.toolCalls.map(c => JSON.stringify(c)).join('\\n')`) +
		` | while IFS= read -r params; do mcpscope call tools/call "$params" "$1" || exit; done`
	return map[string]string{
		"initialize":                          "mcpscope tools",
		"tools_call":                          harnessToolCall("add_numbers", `{"a":5,"b":3}`),
		"elicitation-sep1034-client-defaults": harnessToolCall("test_client_elicitation_defaults", "{}") + " --answers " + shellQuote(answers),
		"sse-retry":                           harnessToolCall("test_reconnection", "{}"),
		"request-metadata":                    "mcpscope tools",
		"sep-2322-client-request-state":       perURL(mrtr),
		"http-standard-headers":               "mcpscope tools",
		"http-custom-headers":                 perURL(contextCalls),
		"http-invalid-tool-headers":           harnessToolCall("valid_tool", `{"region":"us-west1"}`),
		"json-schema-ref-no-deref":            "mcpscope tools",
		"json-schema-2020-12-preservation":    perURL(schemaEcho),
		"auth/pre-registration": harnessToolCall("test-tool", "{}") +
			` --client-id "$(` + fromContext("ctx.client_id") + `)" --client-secret "$(` + fromContext("ctx.client_secret") + `)"`,
	}
}

// harnessBound bounds one scenario's run of the harness.
const harnessBound = guard.Run

// harnessScenario is one client scenario at one protocol version.
type harnessScenario struct {
	name, era string
}

func (s harnessScenario) String() string { return s.name + "@" + s.era }

// harnessScenarios lists the harness's client spec scenarios (extensions
// left out), each at 2025-11-25 and at 2026-07-28 where it applies, and
// at its own version when it applies to neither (the 2025-03-26
// back-compatibility ones).
func harnessScenarios(t *testing.T, harness []string) []harnessScenario {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang) // hang guard only
	defer cancel()
	out, err := exec.CommandContext(ctx, harness[0], append(slices.Clone(harness[1:]), "list", "--client")...).Output()
	if err != nil {
		if ctx.Err() != nil {
			t.Fatalf("conformance list --client was still running after %s: %v", guard.Hang, err)
		}
		t.Fatalf("conformance list --client: %v", err)
	}
	line := regexp.MustCompile(`^\s+- (\S+) \[([^\]]+)\]$`)
	var list []harnessScenario
	for _, l := range strings.Split(string(out), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil || m[2] == "extension" {
			continue
		}
		versions := strings.Split(m[2], ",")
		var eras []string
		for _, v := range []string{mcp.LatestLegacy, mcp.Modern} {
			if slices.Contains(versions, v) {
				eras = append(eras, v)
			}
		}
		if len(eras) == 0 {
			eras = versions[len(versions)-1:]
		}
		for _, era := range eras {
			list = append(list, harnessScenario{m[1], era})
		}
	}
	if len(list) < 50 {
		t.Fatalf("conformance list --client named %d scenarios:\n%s", len(list), out)
	}
	return list
}

// harnessResult is how one scenario ended.
type harnessResult struct {
	ok     bool
	report string // the harness's output and the checks that did not succeed
}

// TestConformanceHarness runs every client spec scenario of the official
// conformance harness against the mcpscope command and fails naming each
// scenario where a check did not succeed (a warning counts, as the
// harness itself counts it).
func TestConformanceHarness(t *testing.T) {
	t.Parallel()
	harness := peertest.ConformanceHarness(t)
	bin := builtBinary(t)
	browser := oauthtest.BrowserProgram(t)
	answers := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(answers, []byte("elicitation:\n  - action: accept\n    content: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	commands := harnessCommands(answers)
	scenarios := harnessScenarios(t, harness)

	results := make([]harnessResult, len(scenarios))
	sem := make(chan struct{}, 4) // node and the harness are heavier than mcpscope
	var wg sync.WaitGroup
	for i, sc := range scenarios {
		command, ok := commands[sc.name]
		if !ok && strings.HasPrefix(sc.name, "auth/") {
			command, ok = harnessAuth, true
		}
		if !ok {
			results[i] = harnessResult{report: "no mcpscope command is mapped to this scenario"}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = runHarnessScenario(t, harness, sc, command, filepath.Dir(bin), browser)
		}()
	}
	wg.Wait()

	var failed []string
	for i, sc := range scenarios {
		r := results[i]
		if !r.ok {
			failed = append(failed, sc.String())
			t.Errorf("%s failed:\n%s", sc, r.report)
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d scenarios failed: %s", len(failed), len(scenarios), strings.Join(failed, ", "))
	}
}

// runHarnessScenario runs one scenario with the client command line
// command, mcpscope found in binDir.
func runHarnessScenario(t *testing.T, harness []string, sc harnessScenario, command, binDir, browser string) harnessResult {
	dir, err := os.MkdirTemp(t.TempDir(), "scenario-")
	if err != nil {
		return harnessResult{report: err.Error()}
	}
	results := filepath.Join(dir, "results")
	// A hang guard only: the harness gives the client 30 s itself.
	ctx, cancel := context.WithTimeout(context.Background(), harnessBound)
	defer cancel()
	args := append(slices.Clone(harness[1:]), "client", "--scenario", sc.name)
	if sc.era != "" { // an extension scenario is on no spec version's timeline
		args = append(args, "--spec-version", sc.era)
	}
	cmd := exec.CommandContext(ctx, harness[0], append(args, "--timeout", "30000",
		"--command", command, "--output-dir", results)...)
	cmd.Dir = peertest.Dir()
	// Each scenario has a token store and a home of its own.
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"MCPSCOPE_KEYRING=off", "BROWSER="+browser, "NO_COLOR=1",
		"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	report := out.String() + notSucceeded(results)
	ok := runErr == nil && strings.Contains(out.String(), "OVERALL: PASSED")
	if runErr != nil {
		report += "\nharness: " + runErr.Error()
	}
	if ctx.Err() != nil {
		report += fmt.Sprintf("\nthe harness was still running after %s", harnessBound)
	}
	return harnessResult{ok: ok, report: report}
}

// notSucceeded lists the checks under dir that neither succeeded nor were
// only informative, with the client's stderr.
func notSucceeded(dir string) string {
	var b strings.Builder
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "checks.json"))
	for _, p := range append(paths, more...) {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var checks []struct {
			ID           string          `json:"id"`
			Status       string          `json:"status"`
			ErrorMessage string          `json:"errorMessage"`
			Details      json.RawMessage `json:"details"`
		}
		_ = json.Unmarshal(raw, &checks)
		for _, c := range checks {
			if c.Status != "SUCCESS" && c.Status != "INFO" && c.Status != "SKIPPED" {
				fmt.Fprintf(&b, "  %s %s: %s %s\n", c.Status, c.ID, c.ErrorMessage, termtext.Ellipsis(string(c.Details), 400))
			}
		}
		if stderr, err := os.ReadFile(filepath.Join(filepath.Dir(p), "stderr.txt")); err == nil && len(stderr) > 0 {
			fmt.Fprintf(&b, "  mcpscope's stderr: %s\n", termtext.Ellipsis(string(stderr), 1500))
		}
	}
	return b.String()
}

// shellQuote quotes s for the shell the harness runs the command with.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " '\"$`\\!*?[]{}();&|<>~#\t\n") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
