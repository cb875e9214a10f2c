package explore

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/fuzzy"
	"github.com/mcpscope/mcpscope/ui/look"
)

// exploreTab is one of the explorer's lists.
type exploreTab int

// The explorer's lists, in tab order.
const (
	tabTools exploreTab = iota
	tabResources
	tabTemplates
	tabPrompts
	tabSkills // the Skills extension: shown once advertised or asked for (skill.go)
	tabCount
)

// exploreLists says, per tab, which list method fills it, the member of
// its result that holds the items, and the server capability that
// advertises it.
var exploreLists = [tabCount]struct {
	name, method, field, capability string
}{
	tabTools:     {"Tools", mcp.MethodToolsList, "tools", "tools"},
	tabResources: {"Resources", mcp.MethodResourcesList, "resources", "resources"},
	tabTemplates: {"Templates", mcp.MethodResourceTemplatesList, "resourceTemplates", "resources"},
	tabPrompts:   {"Prompts", mcp.MethodPromptsList, "prompts", "prompts"},
	tabSkills:    {"Skills", mcp.MethodSkillsList, "skills", mcp.ExtensionSkills},
}

// entry is one tool, resource, resource template or prompt of a list.
type entry struct {
	tab    exploreTab
	name   string          // tool, resource, template or prompt name
	title  string          // its title, when it has one
	desc   string          // its description
	uri    string          // a resource's uri or a template's uriTemplate
	mime   string          // a resource's or template's mimeType
	hints  []string        // a tool's annotations worth a tag
	schema json.RawMessage // a tool's inputSchema
	output json.RawMessage // a tool's outputSchema, nil when it declares none
	args   []mcp.PromptArgument
	bad    string  // why the item could not be read ("" when it could)
	run    toolRun // how enter runs a tool on an interactive server
	// declared is what a tool's _meta says of interactive sessions.
	declared toolDeclared
	// headers says why a tool's x-mcp-header annotations are invalid
	// (2026-07-28 over HTTP; insist.go), "" when they are not.
	headers string
	// skill is a skill's entry of skills/list (its files, digests, sizes).
	skill mcp.Skill
	// app is a tool's MCP App metadata (_meta.ui), nil when it has none.
	app *mcp.ToolApp
	// appUI is a UI resource's app metadata as its list entry gives it
	// (the read contents' _meta.ui prevails), nil when it has none.
	appUI *mcp.AppResource
	// taskSupport is a tool's execution.taskSupport (the Tasks
	// extension's 2025-11-25 generation), "" when it declares none.
	taskSupport string
}

// toolRun is how enter runs a tool on a server that runs interactive
// sessions; on any other server every tool is toolPlain.
type toolRun int

const (
	toolPlain    toolRun = iota // the tools/call form
	toolTry                     // not known yet: enter tries a wizard, -32007 opens the form
	toolWizard                  // a wizard: the server started one for this tool
	toolCallOnly                // the server refused a wizard (-32007): the form
	toolListed                  // the tool list says it is plain (tool_declared.go): the form, untagged
)

// decodeEntry reads one list item; an item that does not decode is kept
// with the reason, so that the list shows it.
func decodeEntry(tab exploreTab, raw json.RawMessage) entry {
	e := entry{tab: tab}
	var err error
	switch tab {
	case tabTools:
		var t mcp.Tool
		if err = json.Unmarshal(raw, &t); err == nil {
			e.name, e.title, e.desc, e.schema, e.output = t.Name, t.Title, t.Description, t.InputSchema, t.OutputSchema
			e.hints = toolHints(t.Annotations)
			e.declared = declaredOf(t.Meta)
			if a, ok := mcp.ReadToolApp(t.Meta); ok {
				e.app = &a
			}
			e.taskSupport = mcp.ToolTaskSupport(raw)
		}
	case tabResources:
		var r mcp.Resource
		if err = json.Unmarshal(raw, &r); err == nil {
			e.name, e.title, e.desc, e.uri, e.mime = r.Name, r.Title, r.Description, r.URI, r.MimeType
			if a, ok := mcp.ReadAppResource(r.Meta); ok {
				e.appUI = &a
			}
		}
	case tabTemplates:
		var r mcp.ResourceTemplate
		if err = json.Unmarshal(raw, &r); err == nil {
			e.name, e.title, e.desc, e.uri, e.mime = r.Name, r.Title, r.Description, r.URITemplate, r.MimeType
		}
	case tabPrompts:
		var p mcp.Prompt
		if err = json.Unmarshal(raw, &p); err == nil {
			e.name, e.title, e.desc, e.args = p.Name, p.Title, p.Description, p.Arguments
		}
	case tabSkills:
		if err = json.Unmarshal(raw, &e.skill); err == nil {
			fm := e.skill.Named()
			e.name, e.desc, e.uri = cmp.Or(fm.Name, e.skill.URI), fm.Description, e.skill.URI
		}
	}
	if err != nil {
		e.bad = fmt.Sprintf("this item does not decode: %v", err)
		e.name = look.OneLine(string(raw))
	}
	return e
}

// toolHints names the annotations of a tool worth a tag in its row.
func toolHints(raw json.RawMessage) []string {
	var a struct {
		ReadOnly    *bool `json:"readOnlyHint"`
		Destructive *bool `json:"destructiveHint"`
		Idempotent  *bool `json:"idempotentHint"`
		OpenWorld   *bool `json:"openWorldHint"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &a) != nil {
		return nil
	}
	var out []string
	set := func(b *bool) bool { return b != nil && *b }
	if set(a.ReadOnly) {
		out = append(out, "read-only")
	} else if set(a.Destructive) {
		out = append(out, "destructive")
	}
	if set(a.Idempotent) {
		out = append(out, "idempotent")
	}
	if set(a.OpenWorld) {
		out = append(out, "open-world")
	}
	return out
}

// label is the entry's name with its title when the title differs.
func (e *entry) label() string {
	if e.title != "" && e.title != e.name {
		return e.name + " (" + e.title + ")"
	}
	return e.name
}

// detail is what the row shows between the label and the description:
// tool hints, a resource's URI and type, a template's URI template, a
// prompt's arguments (required ones marked with *).
func (e *entry) detail() string {
	switch e.tab {
	case tabTools:
		hints := e.hints
		if e.headers != "" {
			hints = append(slices.Clip(hints), headerTag)
		}
		switch e.run {
		case toolWizard:
			hints = append(slices.Clip(hints), "wizard")
		case toolCallOnly:
			hints = append(slices.Clip(hints), "tools/call only")
		}
		if len(hints) > 0 {
			return "[" + strings.Join(hints, ", ") + "]"
		}
	case tabResources, tabTemplates:
		return strings.TrimSpace(e.uri + "  " + e.mime)
	case tabPrompts:
		names := make([]string, len(e.args))
		for i, a := range e.args {
			names[i] = a.Name
			if a.Required {
				names[i] += "*"
			}
		}
		return "(" + strings.Join(names, ", ") + ")"
	case tabSkills:
		return skillSize(e.skill)
	}
	return ""
}

// match scores the entry against a filter: the best of its name, title
// and URI.
func (e *entry) match(pattern string) (int, bool) {
	best, any := 0, false
	for _, s := range []string{e.name, e.title, e.uri} {
		if score, ok := fuzzy.Score(pattern, s); ok && (!any || score > best) {
			best, any = score, true
		}
	}
	return best, any
}

// key identifies the entry for remembering the arguments of its last call.
func (e *entry) key() string {
	if e.tab == tabTemplates {
		return fmt.Sprintf("%d %s", e.tab, e.uri)
	}
	return fmt.Sprintf("%d %s", e.tab, e.name)
}
