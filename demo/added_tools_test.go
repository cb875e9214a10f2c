package demo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// adder is a recorder whose transport adds tools of its own.
type adder struct {
	*recorder
	tools []Tool
}

func (a adder) AddedTools() []Tool { return a.tools }

// A connection lists and calls the tools its transport adds, by name
// among the registry's; an added tool named like one of the registry's
// is the registry's, listed once.
func TestConnAddedTools(t *testing.T) {
	s := newTestServer(t)
	answer := func(text string) ToolHandler {
		return func(context.Context, *Call) (*ToolResult, error) { return TextResult(text), nil }
	}
	r := adder{recorder: newRecorder(), tools: []Tool{{Name: "added", Handler: answer("mine")}, {Name: "echo", Handler: answer("shadow")}}}
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, "tools/list", nil))
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(r.response(t, 1).Result, &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, " "); !strings.HasPrefix(got, "added analyze ") || strings.Count(got, "echo") != 1 {
		t.Errorf("tools/list: %s", got)
	}
	c.Handle(request(t, 2, "tools/call", map[string]any{"name": "added"}))
	c.Handle(request(t, 3, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}}))
	if a, e := string(r.response(t, 2).Result), string(r.response(t, 3).Result); !strings.Contains(a, "mine") || !strings.Contains(e, `"hi"`) {
		t.Errorf("added: %s, echo: %s", a, e)
	}
}
