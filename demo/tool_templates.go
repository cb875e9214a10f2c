package demo

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// listTemplates lists the templates, optionally filtered.
func listTemplates(_ context.Context, c *Call) (*ToolResult, error) {
	var a struct {
		Toolchain string `json:"toolchain"`
		Category  string `json:"category"`
	}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	list := []map[string]any{}
	for i := range builtinTemplates {
		if t := &builtinTemplates[i]; t.matches(a.Toolchain, a.Category) {
			list = append(list, t.summary())
		}
	}
	return StructuredResult(map[string]any{"templates": list}), nil
}

// generateTemplate renders one template.
func generateTemplate(_ context.Context, c *Call) (*ToolResult, error) {
	t, params, err := decodeTemplateArgs(c)
	if err != nil {
		return nil, err
	}
	out, err := t.render(params)
	if err != nil {
		return nil, err
	}
	return TextResult(out), nil
}

// validateTemplate checks parameters without rendering: invalid parameters
// are a result ({"valid":false,"errors":[…]}), not an error.
func validateTemplate(_ context.Context, c *Call) (*ToolResult, error) {
	t, params, err := decodeTemplateArgs(c)
	if err != nil {
		return nil, err
	}
	_, problems := t.validateParams(params)
	if problems == nil {
		problems = []string{}
	}
	return StructuredResult(map[string]any{"valid": len(problems) == 0, "errors": problems}), nil
}

// scaffoldProject renders several templates of one toolchain with shared
// parameters. A template is named by category ("makefile") or by URI.
func scaffoldProject(_ context.Context, c *Call) (*ToolResult, error) {
	var a struct {
		Toolchain  string         `json:"toolchain"`
		Templates  []string       `json:"templates"`
		Parameters map[string]any `json:"parameters"`
	}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	if a.Toolchain == "" || len(a.Templates) == 0 {
		return nil, invalidParams("scaffold_project needs a toolchain and at least one template")
	}
	files := []map[string]string{}
	for _, name := range a.Templates {
		t, err := scaffoldTemplate(a.Toolchain, name)
		if err != nil {
			return nil, err
		}
		out, err := t.render(a.Parameters)
		if err != nil {
			return nil, err
		}
		files = append(files, map[string]string{"path": t.Path, "uri": t.URI, "content": out})
	}
	return StructuredResult(map[string]any{"files": files}), nil
}

// scaffoldTemplate resolves a template of scaffold_project.
func scaffoldTemplate(toolchain, name string) (*projectTemplate, error) {
	if strings.HasPrefix(name, "template://") {
		return findTemplate(name)
	}
	for i := range builtinTemplates {
		if t := &builtinTemplates[i]; t.Toolchain == toolchain && t.Category == name {
			return t, nil
		}
	}
	return nil, rpcError(mcp.CodeTemplateNotFound, map[string]string{"toolchain": toolchain, "template": name},
		"Template not found: no %q template for toolchain %q", name, toolchain)
}

// searchTemplates ranks templates by the share of query words they contain.
func searchTemplates(_ context.Context, c *Call) (*ToolResult, error) {
	var a struct {
		Query     string `json:"query"`
		Toolchain string `json:"toolchain"`
	}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	words := strings.Fields(strings.ToLower(a.Query))
	if len(words) == 0 {
		return nil, invalidParams("search_templates needs a non-empty query")
	}
	type hit struct {
		t     *projectTemplate
		score float64
	}
	var hits []hit
	for i := range builtinTemplates {
		t := &builtinTemplates[i]
		if !t.matches(a.Toolchain, "") {
			continue
		}
		text := strings.ToLower(strings.Join([]string{t.URI, t.Name, t.Description, t.Category, t.Toolchain}, " "))
		found := 0
		for _, w := range words {
			if strings.Contains(text, w) {
				found++
			}
		}
		if found > 0 {
			hits = append(hits, hit{t, float64(found) / float64(len(words))})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	results := []map[string]any{}
	for _, h := range hits {
		r := h.t.summary()
		r["score"] = h.score
		results = append(results, r)
	}
	return StructuredResult(map[string]any{"query": a.Query, "results": results,
		"summary": fmt.Sprintf("%d of %d templates match", len(results), len(builtinTemplates))}), nil
}
