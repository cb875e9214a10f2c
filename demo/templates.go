package demo

import (
	"regexp"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// templateParam declares one parameter of a template.
type templateParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"` // string | boolean | integer
	Required    bool   `json:"required,omitempty"`
	Default     any    `json:"default,omitempty"`
	Pattern     string `json:"pattern,omitempty"`
	Description string `json:"description,omitempty"`
}

// projectTemplate is one entry of the built-in template set (seed 001).
type projectTemplate struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	MimeType    string          `json:"mimeType"`
	Category    string          `json:"category"`
	Toolchain   string          `json:"toolchain"`
	Path        string          `json:"path"`
	Params      []templateParam `json:"parameters"`
	Body        string          `json:"-"` // text/template source
}

// projectName is the parameter every project template needs.
var projectName = templateParam{Name: "project_name", Type: "string", Required: true,
	Pattern: `^[a-z][a-z0-9_-]*$`, Description: "lower-case project name"}

// builtinTemplates is the template set of the demo, by URI
// template://CATEGORY/TOOLCHAIN/VARIANT.
var builtinTemplates = []projectTemplate{
	{
		URI: "template://makefile/rust/cli", Name: "Rust CLI Makefile", MimeType: "text/x-makefile",
		Description: "Professional Makefile template for Rust CLI projects",
		Category:    "makefile", Toolchain: "rust", Path: "Makefile",
		Params: []templateParam{projectName, {Name: "has_tests", Type: "boolean", Default: true, Description: "add a test target"}},
		Body: "# Makefile for {{.project_name}}\n.PHONY: build release{{if .has_tests}} test{{end}}\n\n" +
			"build:\n\tcargo build\n\nrelease:\n\tcargo build --release\n" +
			"{{if .has_tests}}\ntest:\n\tcargo test\n{{end}}",
	},
	{
		URI: "template://readme/rust/cli", Name: "Rust CLI README", MimeType: "text/markdown",
		Description: "README for a Rust command-line tool",
		Category:    "readme", Toolchain: "rust", Path: "README.md",
		Params: []templateParam{projectName, {Name: "description", Type: "string", Default: "A command-line tool.", Description: "one-line summary"}},
		Body:   "# {{.project_name}}\n\n{{.description}}\n\n## Build\n\n    cargo build --release\n",
	},
	{
		URI: "template://gitignore/rust/cli", Name: "Rust .gitignore", MimeType: "text/plain",
		Description: "gitignore for Cargo projects",
		Category:    "gitignore", Toolchain: "rust", Path: ".gitignore",
		Body: "/target\n**/*.rs.bk\n",
	},
	{
		URI: "template://makefile/go/cli", Name: "Go CLI Makefile", MimeType: "text/x-makefile",
		Description: "Makefile for a Go command-line tool with vet and race tests",
		Category:    "makefile", Toolchain: "go", Path: "Makefile",
		Params: []templateParam{projectName, {Name: "go_version", Type: "string", Default: "1.26", Pattern: `^1\.[0-9]+$`, Description: "Go release"}},
		Body: "# Makefile for {{.project_name}} (Go {{.go_version}})\n.PHONY: build test\n\n" +
			"build:\n\tgo build -o {{.project_name}} .\n\ntest:\n\tgo vet ./...\n\tgo test -race ./...\n",
	},
	{
		URI: "template://readme/go/cli", Name: "Go CLI README", MimeType: "text/markdown",
		Description: "README for a Go command-line tool",
		Category:    "readme", Toolchain: "go", Path: "README.md",
		Params: []templateParam{projectName},
		Body:   "# {{.project_name}}\n\n    go install ./...\n",
	},
	{
		URI: "template://makefile/python/package", Name: "Python package Makefile", MimeType: "text/x-makefile",
		Description: "Makefile for a Python package managed with uv",
		Category:    "makefile", Toolchain: "python", Path: "Makefile",
		Params: []templateParam{projectName, {Name: "python_version", Type: "string", Default: "3.12", Description: "Python release"},
			{Name: "coverage_threshold", Type: "integer", Default: 80, Description: "minimum test coverage, percent"}},
		Body: "# Makefile for {{.project_name}} (Python {{.python_version}})\n.PHONY: test\n\n" +
			"test:\n\tuv run --python {{.python_version}} pytest --cov --cov-fail-under={{.coverage_threshold}}\n",
	},
}

// templateURI is the shape of a template URI, compiled on first use.
var templateURI = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^template://[a-z0-9_-]+/[a-z0-9_-]+/[a-z0-9_-]+$`)
})

// findTemplate resolves a URI: -32001 when malformed, -32000 when unknown.
func findTemplate(uri string) (*projectTemplate, error) {
	if !templateURI().MatchString(uri) {
		return nil, rpcError(mcp.CodeInvalidTemplateURI, map[string]string{"uri": uri},
			"Invalid template URI: %q is not template://CATEGORY/TOOLCHAIN/VARIANT", uri)
	}
	for i := range builtinTemplates {
		if builtinTemplates[i].URI == uri {
			return &builtinTemplates[i], nil
		}
	}
	return nil, rpcError(mcp.CodeTemplateNotFound, map[string]string{"uri": uri}, "Template not found: %s", uri)
}

// matches reports whether t passes the optional filters.
func (t *projectTemplate) matches(toolchain, category string) bool {
	return (toolchain == "" || strings.EqualFold(t.Toolchain, toolchain)) &&
		(category == "" || strings.EqualFold(t.Category, category))
}
