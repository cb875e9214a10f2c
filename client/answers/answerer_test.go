package answers

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ask sends one server request to h and returns the result as JSON.
func ask(t *testing.T, h *Answerer, method, params string) (string, error) {
	t.Helper()
	res, err := h.HandleServerRequest(context.Background(), method, json.RawMessage(params))
	if err != nil {
		return "", err
	}
	b, mErr := json.Marshal(res)
	if mErr != nil {
		t.Fatalf("result does not marshal: %v", mErr)
	}
	return string(b), nil
}

const formRequest = `{"message":"Please provide inputs for the following fields","requestedSchema":{"type":"object",
	"properties":{"name":{"type":"string"},"check":{"type":"boolean","default":false},
	"integer":{"type":"integer","default":3},"color":{"type":"string","enum":["red","blue"],"default":"blue"},
	"noDefault":{"type":"string"}},"required":["name"]}}`

func TestAnswererFillsSchemaDefaults(t *testing.T) {
	a, err := Parse([]byte("elicitation:\n  - action: accept\n    content: {name: Ada, integer: 7}\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := NewAnswerer(a, nil, nil)
	got, err := ask(t, h, mcp.MethodElicitationCreate, formRequest)
	if err != nil {
		t.Fatal(err)
	}
	// integer keeps the answer; check and color take the defaults; noDefault stays absent.
	want := `{"action":"accept","content":{"check":false,"color":"blue","integer":7,"name":"Ada"}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAnswererConsumesInOrderPerKind(t *testing.T) {
	a, err := Parse([]byte(`
elicitation:
  - content: {name: first}
  - action: decline
  - action: cancel
sampling:
  - text: one
  - text: two
    model: manual
    stopReason: maxTokens
`))
	if err != nil {
		t.Fatal(err)
	}
	var failures []error
	h := NewAnswerer(a, nil, func(err error) { failures = append(failures, err) })
	steps := []struct{ method, params, want string }{
		{mcp.MethodElicitationCreate, `{"message":"a","requestedSchema":{"properties":{"name":{"type":"string"}}}}`, `{"action":"accept","content":{"name":"first"}}`},
		{mcp.MethodSamplingCreateMessage, `{"messages":[{"role":"user","content":{"type":"text","text":"q1"}}],"maxTokens":5}`,
			`{"role":"assistant","content":{"text":"one","type":"text"},"model":"mcpscope","stopReason":"endTurn"}`},
		{mcp.MethodElicitationCreate, `{"message":"b"}`, `{"action":"decline"}`},
		{mcp.MethodSamplingCreateMessage, `{"messages":[]}`, `{"role":"assistant","content":{"text":"two","type":"text"},"model":"manual","stopReason":"maxTokens"}`},
		{mcp.MethodElicitationCreate, `{"message":"c"}`, `{"action":"cancel"}`},
	}
	for i, s := range steps {
		got, err := ask(t, h, s.method, s.params)
		if err != nil || got != s.want {
			t.Errorf("step %d: got %s, %v\nwant %s", i, got, err, s.want)
		}
	}
	if len(failures) != 0 {
		t.Errorf("unexpected failures: %v", failures)
	}
}

func TestAnswererNoAnswerLeft(t *testing.T) {
	var failures []error
	h := NewAnswerer(&File{Elicitation: []Elicitation{{Action: "decline"}}}, nil, func(err error) { failures = append(failures, err) })
	if _, err := ask(t, h, mcp.MethodElicitationCreate, `{"message":"first"}`); err != nil {
		t.Fatal(err)
	}
	_, err := ask(t, h, mcp.MethodElicitationCreate, formRequest)
	var pe *jsonrpc.Error
	if !errors.As(err, &pe) || pe.Code != -32603 {
		t.Fatalf("server got %v, want a -32603 error response", err)
	}
	if len(failures) != 1 {
		t.Fatalf("failures = %v", failures)
	}
	want := `no answer left for elicitation/create "Please provide inputs for the following fields"`
	if failures[0].Error() != want || !errors.As(failures[0], new(*UnansweredError)) {
		t.Errorf("failure %#v, want the UnansweredError %q", failures[0], want)
	}

	_, err = ask(t, h, mcp.MethodSamplingCreateMessage, `{"messages":[{"role":"user","content":[{"type":"image","data":""},{"type":"text","text":"What is the capital of France?"}]}]}`)
	if err == nil || len(failures) != 2 || failures[1].Error() != `no answer left for sampling/createMessage "What is the capital of France?"` {
		t.Errorf("sampling: %v, failures %v", err, failures)
	}
}

// Without an answers file, the server is told the run has none, not that
// its answers ran out.
func TestAnswererWithoutFile(t *testing.T) {
	h := NewAnswerer(nil, nil, nil)
	_, err := ask(t, h, mcp.MethodElicitationCreate, formRequest)
	var pe *jsonrpc.Error
	if !errors.As(err, &pe) || pe.Message != "mcpscope runs without an answers file: it cannot answer elicitation/create" {
		t.Errorf("server got %v", err)
	}
}

func TestAnswererURLModeAndRoots(t *testing.T) {
	roots := []mcp.Root{{URI: "file:///srv/project", Name: "project"}}
	h := NewAnswerer(&File{Elicitation: []Elicitation{{Action: "accept", Content: map[string]any{"ignored": 1}}}}, roots, nil)
	got, err := ask(t, h, mcp.MethodElicitationCreate, `{"mode":"url","message":"open","url":"https://example.com/x","elicitationId":"1"}`)
	if err != nil || got != `{"action":"accept"}` {
		t.Errorf("url mode: %s, %v", got, err)
	}
	for range 2 { // roots are not consumed
		got, err = ask(t, h, mcp.MethodRootsList, `{}`)
		if err != nil || got != `{"roots":[{"uri":"file:///srv/project","name":"project"}]}` {
			t.Errorf("roots: %s, %v", got, err)
		}
	}
	got, err = ask(t, NewAnswerer(nil, nil, nil), mcp.MethodRootsList, ``)
	if err != nil || got != `{"roots":[]}` {
		t.Errorf("no roots: %s, %v", got, err)
	}
}

func TestAnswererUnknownAndMalformed(t *testing.T) {
	h := NewAnswerer(nil, nil, nil)
	_, err := ask(t, h, "interaction.prompt", `{}`)
	var pe *jsonrpc.Error
	if !errors.As(err, &pe) || pe.Code != -32601 {
		t.Errorf("unknown method: %v", err)
	}
	_, err = ask(t, h, mcp.MethodElicitationCreate, `{"message":7}`)
	if !errors.As(err, &pe) || pe.Code != -32602 || !strings.Contains(pe.Message, "elicitation/create") {
		t.Errorf("malformed params: %v", err)
	}
	if got, err := ask(t, h, mcp.MethodPing, ``); err != nil || got != `{}` {
		t.Errorf("ping: %s, %v", got, err)
	}
}

func TestWithSchemaDefaultsToleratesOddSchemas(t *testing.T) {
	for _, schema := range []string{``, `true`, `{"properties":[]}`, `{"properties":{"a":true,"b":{"default":null}}}`} {
		got := withSchemaDefaults(map[string]any{"x": 1}, json.RawMessage(schema))
		if len(got) < 1 || got["x"] != 1 {
			t.Errorf("%s: %v", schema, got)
		}
	}
}

// Repeat starts each kind of answer again at its first: the n-th question
// gets answer n mod the answers of its kind, and never runs out.
func TestAnswererRepeatCycles(t *testing.T) {
	f, err := Parse([]byte("elicitation:\n  - action: accept\n    content: {n: x}\n  - action: decline\n"))
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	a := NewAnswerer(f, nil, func(error) { failed++ })
	a.Repeat()
	params := json.RawMessage(`{"message":"name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}}`)
	var actions []string
	for range 5 {
		res, err := a.HandleServerRequest(context.Background(), mcp.MethodElicitationCreate, params)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(res)
		var r struct {
			Action string `json:"action"`
		}
		_ = json.Unmarshal(raw, &r)
		actions = append(actions, r.Action)
	}
	if got := strings.Join(actions, " "); got != "accept decline accept decline accept" || failed != 0 {
		t.Errorf("answers %q, %d failures; want them in a loop", got, failed)
	}
}
