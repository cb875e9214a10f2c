package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

func TestScriptStepsOrder(t *testing.T) {
	file := []answers.Step{{Method: "ping"}, {Tool: "b"}}
	steps, err := scriptSteps("a", `{"x":1}`, file)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || steps[0].Tool != "a" || string(steps[0].Arguments) != `{"x":1}` || steps[1].Method != "ping" || steps[2].Tool != "b" {
		t.Errorf("steps %+v", steps)
	}
	if steps, err = scriptSteps("", "", file); err != nil || len(steps) != 2 {
		t.Errorf("file only: %+v %v", steps, err)
	}
	params, err := steps[1].ToolsCallParams()
	if err != nil || string(params) != `{"name":"b"}` {
		t.Errorf("tools/call params %s %v", params, err)
	}
	for name, c := range map[string][2]string{
		"args without tool": {"", `{}`},
		"args not JSON":     {"a", `{x`},
		"args not object":   {"a", `[1]`},
		"nothing to run":    {"", ""},
	} {
		if _, err := scriptSteps(c[0], c[1], nil); ExitCode(err) != ExitUsage {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Mistakes on the command line or in the steps exit 2 before any server
// is started.
func TestScriptUsageErrors(t *testing.T) {
	server := filepath.Join(t.TempDir(), "never-started")
	bad := writeAnswers(t, "steps:\n  - {tool: a, method: b}\n")
	cases := map[string][]string{
		"missing TARGET":       {"script", "--tool", "a"},
		"positional argument":  withTarget([]string{server}, "script", "--tool", "a", "extra"),
		"args without tool":    withTarget([]string{server}, "script", "--args", "{}"),
		"args not an object":   withTarget([]string{server}, "script", "--tool", "a", "--args", "[1]"),
		"nothing to run":       withTarget([]string{server}, "script"),
		"bad step in the file": withTarget([]string{server}, "script", "--answers", bad),
	}
	for name, args := range cases {
		r := mcpscope(t, args...)
		if r.code != ExitUsage || !strings.HasPrefix(r.stderr, "error: ") || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("%s: exit %d, stderr %q", name, r.code, r.stderr)
		}
	}
}

// An answers file that cannot be read or is not valid, and a question it
// has no answer left for, exit 2.
func TestAnswersFailuresAreUsage(t *testing.T) {
	dir := t.TempDir()
	if _, err := loadAnswers(filepath.Join(dir, "missing.yaml")); ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "cannot read the answers file") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"sampling": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadAnswers(bad); ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "bad.json is not valid") {
		t.Errorf("bad file: %v", err)
	}
	q := answers.NewPrompts(nil, false)
	_, err := q.Take(&mcp.InteractionPrompt{Type: mcp.PromptText, Message: "Where?"})
	if ExitCode(err) != ExitUsage || !isUsage(err) || Message(err) != `no answer left for interaction.prompt "Where?"` {
		t.Errorf("no answer left: exit %d, %v", ExitCode(err), err)
	}
}
