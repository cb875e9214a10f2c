package demo

import (
	"encoding/json"
	"strings"
	"testing"
)

// structured decodes the structuredContent of a tool result.
func structured[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var res struct {
		StructuredContent T `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	return res.StructuredContent
}

// The template tools answer as seed 001 says, with its error codes.
func TestTemplateTools(t *testing.T) {
	s := newTestServer(t)
	list := structured[struct{ Templates []map[string]string }](t,
		callTool(t, s, "list_templates", map[string]any{"toolchain": "rust", "category": "makefile"}).Result)
	if len(list.Templates) != 1 || list.Templates[0]["uri"] != "template://makefile/rust/cli" {
		t.Errorf("list_templates: %v", list)
	}
	m := callTool(t, s, "generate_template", map[string]any{"resource_uri": "template://makefile/rust/cli",
		"parameters": map[string]any{"project_name": "my-project", "has_tests": false}})
	if got := string(m.Result); !strings.Contains(got, "# Makefile for my-project") || strings.Contains(got, "cargo test") {
		t.Errorf("generate_template: %s", got)
	}
	codes := []struct {
		args any
		code int
	}{
		{map[string]any{"resource_uri": "template://makefile/haskell/cli", "parameters": map[string]any{}}, -32000},
		{map[string]any{"resource_uri": "http://x/y", "parameters": map[string]any{}}, -32001},
		{map[string]any{"resource_uri": "template://makefile/../cli", "parameters": map[string]any{}}, -32001},
		{map[string]any{"resource_uri": "template://makefile/rust/cli", "parameters": map[string]any{}}, -32002},
		{map[string]any{"resource_uri": "template://makefile/rust/cli", "parameters": map[string]any{"project_name": "Bad Name"}}, -32002},
		{map[string]any{"resource_uri": "template://makefile/python/package", "parameters": map[string]any{"project_name": "p", "coverage_threshold": 1.5}}, -32002},
	}
	for _, c := range codes {
		if got := rpcCode(callTool(t, s, "generate_template", c.args)); got != c.code {
			t.Errorf("generate_template %v: code %d, want %d", c.args, got, c.code)
		}
	}
	v := structured[struct {
		Valid  bool
		Errors []string
	}](t, callTool(t, s, "validate_template", map[string]any{"resource_uri": "template://makefile/go/cli",
		"parameters": map[string]any{"go_version": "2"}}).Result)
	if v.Valid || len(v.Errors) != 2 {
		t.Errorf("validate_template: %+v", v)
	}
	sc := structured[struct{ Files []map[string]string }](t, callTool(t, s, "scaffold_project", map[string]any{
		"toolchain": "rust", "templates": []string{"makefile", "readme", "gitignore"}, "parameters": map[string]any{"project_name": "demo"}}).Result)
	if len(sc.Files) != 3 || sc.Files[1]["path"] != "README.md" || !strings.Contains(sc.Files[1]["content"], "# demo") {
		t.Errorf("scaffold_project: %+v", sc)
	}
	if got := rpcCode(callTool(t, s, "scaffold_project", map[string]any{"toolchain": "go", "templates": []string{"gitignore"}, "parameters": map[string]any{}})); got != -32000 {
		t.Errorf("scaffold_project without such a template: %d", got)
	}
	hits := structured[struct{ Results []map[string]any }](t, callTool(t, s, "search_templates", map[string]any{"query": "rust makefile"}).Result)
	if len(hits.Results) < 2 || hits.Results[0]["uri"] != "template://makefile/rust/cli" || hits.Results[0]["score"] != 1.0 {
		t.Errorf("search_templates: %+v", hits)
	}
}
