package answers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

const answersYAML = `
elicitation:
  - action: accept
    content: {name: Ada, check: true, integer: 7}
  - action: decline
sampling:
  - text: "Paris"
    model: manual
roots:
  - {uri: "file:///srv/project", name: project}
interaction:
  - "John"
  - {value: "2026-12-24"}
  - {cancel: true}
  - 42
`

const answersJSON = `{
	"elicitation": [
		{"action": "accept", "content": {"name": "Ada", "check": true, "integer": 7}},
		{"action": "decline"}
	],
	"sampling": [{"text": "Paris", "model": "manual"}],
	"roots": [{"uri": "file:///srv/project", "name": "project"}],
	"interaction": ["John", {"value": "2026-12-24"}, {"cancel": true}, 42]
}`

// Both syntaxes read the same answers, with or without the byte order
// mark a Windows editor writes first.
func TestParseAnswersJSONAndYAMLAgree(t *testing.T) {
	for name, src := range map[string]string{"yaml": answersYAML, "json": answersJSON,
		"yaml after a byte order mark": "\uFEFF" + answersYAML, "json after a byte order mark": "\uFEFF" + answersJSON} {
		a, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(a.Elicitation) != 2 || a.Elicitation[0].Action != "accept" || a.Elicitation[1].Action != "decline" {
			t.Errorf("%s: elicitation %+v", name, a.Elicitation)
		}
		content, _ := json.Marshal(a.Elicitation[0].Content)
		if string(content) != `{"check":true,"integer":7,"name":"Ada"}` {
			t.Errorf("%s: content %s", name, content)
		}
		if !reflect.DeepEqual(a.Sampling, []Sampling{{Text: "Paris", Model: "manual"}}) {
			t.Errorf("%s: sampling %+v", name, a.Sampling)
		}
		if len(a.Roots) != 1 || a.Roots[0].URI != "file:///srv/project" || a.Roots[0].Name != "project" {
			t.Errorf("%s: roots %+v", name, a.Roots)
		}
		if len(a.Interaction) != 4 {
			t.Fatalf("%s: interaction %+v", name, a.Interaction)
		}
		in := a.Interaction
		if in[0].Value != "John" || in[0].Cancel || in[1].Value != "2026-12-24" || !in[2].Cancel || in[2].Value != nil {
			t.Errorf("%s: interaction %+v", name, in)
		}
		if n, ok := in[3].Value.(float64); !ok || n != 42 {
			t.Errorf("%s: interaction[3] = %#v", name, in[3].Value)
		}
	}
}

func TestParseAnswersRejects(t *testing.T) {
	cases := map[string]string{
		"unknown top-level key":  "elicitations:\n  - action: accept\n",
		"unknown answer key":     "sampling:\n  - txt: hi\n",
		"bad action":             "elicitation:\n  - action: maybe\n",
		"root without uri":       "roots:\n  - name: x\n",
		"broken yaml":            "elicitation: [\n",
		"broken json":            `{"elicitation": [}`,
		"not a mapping":          "- a\n- b\n",
		"json unknown key":       `{"sampling":[{"text":"a","extra":1}]}`,
		"cancel is not boolean":  "interaction:\n  - {cancel: sometimes}\n",
		"content is not mapping": "elicitation:\n  - content: [1, 2]\n",
	}
	for name, src := range cases {
		if _, err := Parse([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestParseAnswersEmptyAndNonStringKeys(t *testing.T) {
	a, err := Parse([]byte("  \n"))
	if err != nil || a == nil || len(a.Elicitation) != 0 {
		t.Fatalf("empty file: %+v, %v", a, err)
	}
	a, err = Parse([]byte("elicitation:\n  - content: {1: one, true: yes}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Elicitation[0].Content["1"] != "one" || a.Elicitation[0].Content["true"] != "yes" {
		t.Errorf("content = %#v", a.Elicitation[0].Content)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(p, []byte(answersYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	if a, err := Load(p); err != nil || len(a.Sampling) != 1 {
		t.Fatalf("%+v, %v", a, err)
	}
	_, err := Load(filepath.Join(dir, "missing.yaml"))
	if err == nil || !strings.Contains(err.Error(), "cannot read the answers file") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"sampling": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "bad.json is not valid") {
		t.Errorf("bad file: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(answersYAML))
	f.Add([]byte(answersJSON))
	f.Add([]byte("interaction: [{value: {cancel: true}}]"))
	f.Add([]byte("{}"))
	f.Add([]byte("steps: [{tool: t, arguments: {a: 1}}, {method: m, params: [1]}]\ninteraction: [{file: f}, {a: 1}]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Parse(b)
		if err != nil {
			return
		}
		// Every step that parses is runnable, every answer but a file's sendable.
		for _, st := range a.Steps {
			if err := st.Validate(); err != nil {
				t.Errorf("step %+v: %v", st, err)
			}
		}
		for _, in := range a.Interaction {
			if in.File == "" && !in.Cancel {
				if _, err := in.Respond(); err != nil {
					t.Errorf("answer %+v: %v", in, err)
				}
			}
		}
		// Whatever parses must be usable by the Answerer without a panic.
		h := NewAnswerer(a, a.Roots, nil)
		for range 2 {
			_, _ = h.HandleServerRequest(t.Context(), mcp.MethodElicitationCreate, json.RawMessage(`{"message":"m","requestedSchema":{"properties":{"x":{"default":1}}}}`))
			_, _ = h.HandleServerRequest(t.Context(), mcp.MethodSamplingCreateMessage, json.RawMessage(`{"messages":[]}`))
		}
	})
}

// A JSON answers file after a byte order mark is read as JSON: escapes
// YAML does not know, and its errors named as JSON's.
func TestParseAnswersJSONAfterByteOrderMark(t *testing.T) {
	a, err := Parse([]byte("\uFEFF" + `{"interaction": ["\uD83D\uDE00"]}` + "\n\t"))
	if err != nil || len(a.Interaction) != 1 || a.Interaction[0].Value != "😀" {
		t.Fatalf("%+v, %v", a, err)
	}
	_, err = Parse([]byte("\uFEFF" + `{"elicitation": [}`))
	if err == nil || !strings.HasPrefix(err.Error(), "JSON: ") {
		t.Errorf("broken JSON: %v", err)
	}
}
