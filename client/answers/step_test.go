package answers

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

func TestParseAnswersSteps(t *testing.T) {
	a, err := Parse([]byte(`
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
		a.Steps[1].Tool != "register_user" || a.Steps[1].ToolArguments() != nil || a.Steps[2].Method != "ping" ||
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
		if _, err := Parse([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	_, err := Parse([]byte("steps:\n  - {tool: a}\n  - {tool: t, method: m}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), `step 2 names both the tool "t" and the method "m"`) {
		t.Errorf("error %v", err)
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
	a, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := a.Interaction[0].Respond()
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
	if _, err := a.Interaction[1].Respond(); err == nil || !strings.Contains(err.Error(), "missing.csv") {
		t.Errorf("missing file: %v", err)
	}
}

func TestPromptAnswersRunOut(t *testing.T) {
	q := NewPrompts([]Interaction{{Value: "Oslo"}}, false)
	p := &mcp.InteractionPrompt{Type: mcp.PromptText, Message: `Where "to"?`}
	if a, err := q.Take(p); err != nil || a.Value != "Oslo" {
		t.Fatalf("first: %+v %v", a, err)
	}
	_, err := q.Take(p)
	if !errors.As(err, new(*UnansweredError)) || err.Error() != `no answer left for interaction.prompt "Where \"to\"?"` {
		t.Errorf("second: %v", err)
	}
}

// An unquoted YAML date stays the text written, wherever it stands.
func TestParseAnswersKeepsDatesAsText(t *testing.T) {
	a, err := Parse([]byte("interaction:\n  - 2026-12-24\n  - {value: 2026-12-24T10:30:00+02:00}\nelicitation:\n  - content: {birthdate: 1815-12-10}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Interaction[0].Value != "2026-12-24" || a.Interaction[1].Value != "2026-12-24T10:30:00+02:00" || a.Elicitation[0].Content["birthdate"] != "1815-12-10" {
		t.Errorf("dates %#v %#v %#v", a.Interaction[0].Value, a.Interaction[1].Value, a.Elicitation[0].Content)
	}
}
