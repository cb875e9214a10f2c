package demo

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/demo/internal/wizardtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// toolResult decodes a tools/call answer.
func toolResult(t *testing.T, m *jsonrpc.Message) mcp.CallToolResult {
	t.Helper()
	return wizardtest.Result[mcp.CallToolResult](t, m)
}

// tools/list shows the wizards and the elicitation tools to any client,
// with an input schema of one property per step.
func TestWizardToolsListed(t *testing.T) {
	c, _ := coreClient(t, newTestServer(t))
	list := wizardtest.Result[mcp.ListToolsResult](t, c.Call(mcp.MethodToolsList, nil))
	byName := map[string]mcp.Tool{}
	for _, tool := range list.Tools {
		byName[tool.Name] = tool
	}
	for _, n := range []string{"book_trip", "book_trip_stateless", "register_user", "upload_report", "elicit_all", "elicit_url"} {
		if _, ok := byName[n]; !ok {
			t.Errorf("tools/list lacks %s", n)
		}
	}
	var sch struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if err := json.Unmarshal(byName["book_trip"].InputSchema, &sch); err != nil {
		t.Fatal(err)
	}
	if strings.Join(sch.Required, ",") != "destination,class,date" || sch.Properties["date"]["format"] != "date" ||
		sch.Properties["travellers"]["type"] != "integer" || sch.Properties["destination"]["pattern"] != "^[A-Za-z ]+$" {
		t.Errorf("book_trip input schema %s", byName["book_trip"].InputSchema)
	}
	if !strings.Contains(byName["book_trip_stateless"].Description, "stateless") {
		t.Errorf("description %q", byName["book_trip_stateless"].Description)
	}
}

// A plain tools/call of a wizard takes every answer as arguments, checked
// as the prompts check them; missing or refused answers are tool errors.
func TestWizardToolCallDegrades(t *testing.T) {
	s := newTestServer(t)
	all := map[string]any{"destination": "Oslo", "class": "economy", "date": wizardtest.FutureDate(), "travellers": 3}
	res := toolResult(t, callTool(t, s, "book_trip", all))
	if res.IsError || !strings.Contains(res.Content[0].Text, "Booked economy to Oslo") || !strings.Contains(string(res.StructuredContent), `"success":true`) {
		t.Errorf("all answers: %+v %s", res, res.StructuredContent)
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"destination": "Oslo"}, "start it with interaction.start, or pass every answer as arguments; missing: class, date"},
		{map[string]any{"destination": "Oslo", "class": "economy", "date": "2000-01-01"}, "date refused"},
		{map[string]any{"destination": "Oslo", "class": "first", "date": wizardtest.FutureDate()}, "class refused"},
		{map[string]any{"destination": "Oslo", "class": "economy", "date": wizardtest.FutureDate(), "pets": 2}, `has no step "pets"`},
	} {
		res := toolResult(t, callTool(t, s, "book_trip", tc.args))
		if !res.IsError || !strings.Contains(res.Content[0].Text, tc.want) {
			t.Errorf("%v: %+v, want %q", tc.args, res.Content, tc.want)
		}
	}
	res = toolResult(t, callTool(t, s, "register_user", map[string]any{"name": "Ada", "email": "ada@example.com"}))
	if res.IsError || !strings.Contains(res.Content[0].Text, "Registered Ada <ada@example.com>") {
		t.Errorf("register_user: %+v", res)
	}
}

// Every prompt type is checked by its rules.
func TestCheckAnswer(t *testing.T) {
	one, nine := 1.0, 9.0
	num := &mcp.InteractionPrompt{Type: mcp.PromptNumber, Format: "integer", Validation: &mcp.PromptValidation{Min: &one, Max: &nine}}
	multi := &mcp.InteractionPrompt{Type: mcp.PromptChoice, Multiple: true, Choices: []mcp.PromptChoiceItem{choice("a", ""), choice("b", "")}}
	custom := &mcp.InteractionPrompt{Type: mcp.PromptCustom, Schema: json.RawMessage(`{"type":"object","required":["x"]}`)}
	dt := &mcp.InteractionPrompt{Type: mcp.PromptDate, Format: "date-time"}
	confirm := &mcp.InteractionPrompt{Type: mcp.PromptConfirm}
	for _, tc := range []struct {
		p  *mcp.InteractionPrompt
		v  string
		ok bool
	}{
		{num, "3", true}, {num, "3.5", false}, {num, "0", false}, {num, "10", false}, {num, `"3"`, false},
		{multi, `["a","b"]`, true}, {multi, `["a","a"]`, false}, {multi, `["c"]`, false}, {multi, `"a"`, false},
		{custom, `{"x":1}`, true}, {custom, `{"y":1}`, false},
		{dt, `"2026-12-24T18:00:00Z"`, true}, {dt, `"2026-12-24"`, false},
		{confirm, "true", true}, {confirm, `"yes"`, false}, {confirm, "null", true},
	} {
		if _, r := checkAnswer(tc.p, json.RawMessage(tc.v)); (r == nil) != tc.ok {
			t.Errorf("%s %s: refusal %+v, want ok=%v", tc.p.Type, tc.v, r, tc.ok)
		}
	}
}

// FuzzCheckAnswer: any answer to any prompt of the wizards is kept or
// refused, never a panic, and a kept answer is JSON.
func FuzzCheckAnswer(f *testing.F) {
	for _, s := range []string{`"Oslo"`, `"economy"`, `"2030-01-01"`, `3`, `true`, `null`, `{"name":"a.csv","content":"YQ=="}`, `[1,2]`, `{"name":"a.csv","size":-1,"content":"!"}`} {
		f.Add([]byte(s))
	}
	var prompts []mcp.InteractionPrompt
	for _, w := range builtinWizards() {
		for _, s := range w.Steps {
			prompts = append(prompts, s.Prompt)
		}
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		for i := range prompts {
			kept, r := checkAnswer(&prompts[i], v)
			if r == nil && !json.Valid(kept) {
				t.Fatalf("%s kept %q", prompts[i].Type, kept)
			}
		}
	})
}
