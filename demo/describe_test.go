package demo

import (
	"strings"
	"testing"
)

// ToolDescriptions replaces the description tools/list gives for the tools
// it names, wizards included, and leaves the others alone.
func TestToolDescriptions(t *testing.T) {
	s, err := New(Options{SandboxRoot: t.TempDir(), ToolDescriptions: map[string]string{"echo": "Says it back", "book_trip": "Books"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plain, err := New(Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	want := map[string]string{}
	for _, tool := range plain.listTools(nil).Tools {
		want[tool.Name] = tool.Description
	}
	want["echo"], want["book_trip"] = "Says it back", "Books"
	for _, tool := range s.listTools(nil).Tools {
		if tool.Description != want[tool.Name] {
			t.Errorf("%s: %q, want %q", tool.Name, tool.Description, want[tool.Name])
		}
	}

	_, err = New(Options{SandboxRoot: t.TempDir(), ToolDescriptions: map[string]string{"nope": "x"}})
	if err == nil || !strings.Contains(err.Error(), `the demo has no tool named "nope" to describe`) {
		t.Errorf("an unknown tool: %v", err)
	}
}
