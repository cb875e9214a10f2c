package demo

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// codeResourceNotFound is MCP's code for an unknown resource URI.
const codeResourceNotFound = -32002

// listResources answers resources/list: the built-in templates and the
// UI resource of the MCP App.
func listResources() mcp.ListResourcesResult {
	res := mcp.ListResourcesResult{Resources: make([]mcp.Resource, 0, len(builtinTemplates)+1)}
	for _, t := range builtinTemplates {
		size := int64(len(t.Body))
		res.Resources = append(res.Resources, mcp.Resource{URI: t.URI, Name: t.Name,
			Description: t.Description, MimeType: t.MimeType, Size: &size})
	}
	res.Resources = append(res.Resources, appResource())
	return res
}

// builtinTemplateURI is the resource template of the demo: every built-in
// template is the resource at template://CATEGORY/TOOLCHAIN/VARIANT.
const builtinTemplateURI = "template://{category}/{toolchain}/{variant}"

// listResourceTemplates answers resources/templates/list: the one URI
// template that names every built-in template (resources/read reads it once
// expanded).
func listResourceTemplates() mcp.ListResourceTemplatesResult {
	return mcp.ListResourceTemplatesResult{ResourceTemplates: []mcp.ResourceTemplate{{
		URITemplate: builtinTemplateURI, Name: "builtin_template", Title: "Built-in template",
		Description: templateChoices(),
	}}}
}

// templateChoices describes the template's expansions: only those that
// name a built-in template, as category/toolchain/variant.
func templateChoices() string {
	names := make([]string, len(builtinTemplates))
	for i, t := range builtinTemplates {
		names[i] = strings.TrimPrefix(t.URI, "template://")
	}
	return "The source of a built-in template, by category, toolchain and variant: one of " + strings.Join(names, ", ")
}

// readResource answers resources/read with the template source or a file
// of a skill.
func (s *Server) readResource(params json.RawMessage) (any, *jsonrpc.Error) {
	var p mcp.ReadResourceParams
	if err := json.Unmarshal(params, &p); err != nil || p.URI == "" {
		return nil, invalidParams("resources/read needs a uri")
	}
	if res, ok := s.readSkillFile(p.URI); ok {
		return res, nil
	}
	if p.URI == appResourceURI {
		return mcp.ReadResourceResult{Contents: []mcp.ResourceContents{appContents()}}, nil
	}
	for _, t := range builtinTemplates {
		if t.URI == p.URI {
			return mcp.ReadResourceResult{Contents: []mcp.ResourceContents{{URI: t.URI, MimeType: t.MimeType, Text: t.Body}}}, nil
		}
	}
	return nil, rpcError(codeResourceNotFound, map[string]string{"uri": p.URI}, "Resource not found: %s", p.URI)
}

// demoPrompts are the prompts of the demo.
var demoPrompts = []mcp.Prompt{
	{Name: "review_template", Title: "Review a template", Description: "Ask for a review of one built-in template",
		Arguments: []mcp.PromptArgument{{Name: "uri", Description: "template URI, e.g. template://makefile/rust/cli", Required: true}}},
	{Name: "plan_scaffold", Title: "Plan a project", Description: "Ask which templates a new project needs",
		Arguments: []mcp.PromptArgument{{Name: "toolchain", Description: "rust, go or python", Required: true}}},
}

// listPrompts answers prompts/list.
func listPrompts() mcp.ListPromptsResult { return mcp.ListPromptsResult{Prompts: demoPrompts} }

// getPrompt answers prompts/get.
func getPrompt(params json.RawMessage) (any, *jsonrpc.Error) {
	var p mcp.GetPromptParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, invalidParams("prompts/get params are malformed: %v", err)
	}
	var text string
	switch p.Name {
	case "review_template":
		t, err := findTemplate(p.Arguments["uri"])
		var rerr *jsonrpc.Error
		if errors.As(err, &rerr) {
			return nil, rerr
		}
		text = fmt.Sprintf("Review this %s template (%s) for mistakes:\n\n%s", t.Toolchain, t.URI, t.Body)
	case "plan_scaffold":
		if p.Arguments["toolchain"] == "" {
			return nil, invalidParams("plan_scaffold needs the argument toolchain")
		}
		text = fmt.Sprintf("I start a new %s project. Which of the templates from list_templates should scaffold_project generate?", p.Arguments["toolchain"])
	default:
		return nil, invalidParams("unknown prompt %q; prompts/list names the prompts", p.Name)
	}
	return mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user", Content: Text(text)}}}, nil
}
