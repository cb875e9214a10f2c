package cli

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto"
)

func TestParseAnswersSteps(t *testing.T) {
	a, err := ParseAnswers([]byte(`
steps:
  - {tool: book_trip, arguments: {destination: Oslo}}
  - tool: register_user
  - {method: ping}
  - {method: resources/read, params: {uri: "embedded:info"}}
interaction:
  - {file: report.csv}
  - {name: x, size: 2}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Steps) != 4 || a.Steps[0].Tool != "book_trip" || string(a.Steps[0].Arguments) != `{"destination":"Oslo"}` ||
		a.Steps[1].Tool != "register_user" || a.Steps[1].arguments() != nil || a.Steps[2].Method != "ping" ||
		string(a.Steps[3].Params) != `{"uri":"embedded:info"}` {
		t.Errorf("steps %+v", a.Steps)
	}
	if a.Interaction[0].File != "report.csv" || a.Interaction[0].Value != nil {
		t.Errorf("file answer %+v", a.Interaction[0])
	}
	// An object with other keys is the value itself (a custom prompt's answer).
	if m, ok := a.Interaction[1].Value.(map[string]any); !ok || m["name"] != "x" {
		t.Errorf("custom answer %#v", a.Interaction[1].Value)
	}
}

func TestParseAnswersRejectsBadSteps(t *testing.T) {
	cases := map[string]string{
		"neither":              "steps:\n  - arguments: {a: 1}\n",
		"both":                 "steps:\n  - {tool: t, method: m}\n",
		"params on a tool":     "steps:\n  - {tool: t, params: {a: 1}}\n",
		"arguments on method":  "steps:\n  - {method: m, arguments: {a: 1}}\n",
		"arguments not object": "steps:\n  - {tool: t, arguments: [1]}\n",
		"params scalar":        "steps:\n  - {method: m, params: 3}\n",
		"unknown step key":     "steps:\n  - {tool: t, args: {}}\n",
		"file and value":       "interaction:\n  - {file: a, value: b}\n",
		"cancel and value":     "interaction:\n  - {cancel: true, value: b}\n",
		"empty file":           "interaction:\n  - {file: \"\"}\n",
		"file not a string":    "interaction:\n  - {file: [a]}\n",
	}
	for name, src := range cases {
		if _, err := ParseAnswers([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	_, err := ParseAnswers([]byte("steps:\n  - {tool: a}\n  - {tool: t, method: m}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), `step 2 names both the tool "t" and the method "m"`) {
		t.Errorf("error %v", err)
	}
}

func TestScriptStepsOrder(t *testing.T) {
	file := []ScriptStep{{Method: "ping"}, {Tool: "b"}}
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
	params, err := steps[1].toolsCallParams()
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

func TestLoadAnswersResolvesFileAnswers(t *testing.T) {
	dir := t.TempDir()
	content := []byte("a,b\n1,2\n")
	if err := os.WriteFile(filepath.Join(dir, "report.csv"), content, 0o600); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(p, []byte("interaction:\n  - {file: report.csv}\n  - {file: missing.csv}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := LoadAnswers(p)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := a.Interaction[0].value()
	if err != nil {
		t.Fatal(err)
	}
	var got prompts.FileValue
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	back, _ := base64.StdEncoding.DecodeString(got.Content)
	if got.Name != "report.csv" || got.Size != int64(len(content)) || string(back) != string(content) {
		t.Errorf("file value %s", raw)
	}
	if _, err := a.Interaction[1].value(); ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "missing.csv") {
		t.Errorf("missing file: %v", err)
	}
}

func TestPromptAnswersRunOut(t *testing.T) {
	q := promptAnswers{list: []InteractionAnswer{{Value: "Oslo"}}}
	p := &proto.InteractionPrompt{Type: proto.PromptText, Message: `Where "to"?`}
	if a, err := q.take(p); err != nil || a.Value != "Oslo" {
		t.Fatalf("first: %+v %v", a, err)
	}
	_, err := q.take(p)
	if ExitCode(err) != ExitUsage || Message(err) != `no answer left for interaction.prompt "Where \"to\"?"` {
		t.Errorf("second: %v", err)
	}
}

// An unquoted YAML date stays the text written, wherever it stands.
func TestParseAnswersKeepsDatesAsText(t *testing.T) {
	a, err := ParseAnswers([]byte("interaction:\n  - 2026-12-24\n  - {value: 2026-12-24T10:30:00+02:00}\nelicitation:\n  - content: {birthdate: 1815-12-10}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Interaction[0].Value != "2026-12-24" || a.Interaction[1].Value != "2026-12-24T10:30:00+02:00" || a.Elicitation[0].Content["birthdate"] != "1815-12-10" {
		t.Errorf("dates %#v %#v %#v", a.Interaction[0].Value, a.Interaction[1].Value, a.Elicitation[0].Content)
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
