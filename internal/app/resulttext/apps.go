package resulttext

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// appResourcePart renders what an MCP App's UI resource asks of its host
// (its _meta.ui: CSP domains, permissions, domain, border), one line each,
// above the resource's text; "" for any other resource.
func appResourcePart(raw json.RawMessage) string {
	var c struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return ""
	}
	app, ok := mcp.ReadAppResource(c.Meta)
	if !ok {
		return ""
	}
	return AppLines(app)
}

// AppLines renders a UI resource's app metadata, one "app …" line per
// thing it asks for, each line safe to print.
func AppLines(a mcp.AppResource) string {
	var b strings.Builder
	for _, p := range a.Problems {
		b.WriteString("app problem: " + termtext.OneLine(p) + "\n")
	}
	line := func(what string, values []string) {
		if len(values) == 0 {
			return
		}
		quoted := make([]string, len(values))
		for i, v := range values {
			quoted[i] = termtext.OneLine(v)
		}
		b.WriteString("app " + what + ": " + strings.Join(quoted, " ") + "\n")
	}
	line("csp connect", a.CSP.ConnectDomains)
	line("csp resource", a.CSP.ResourceDomains)
	line("csp frame", a.CSP.FrameDomains)
	line("csp base-uri", a.CSP.BaseURIDomains)
	if a.CSP.ConnectDomains == nil && a.CSP.ResourceDomains == nil && a.CSP.FrameDomains == nil && a.CSP.BaseURIDomains == nil {
		b.WriteString("app csp: none declared (the host's strictest default)\n")
	}
	perms := a.PermissionNames()
	if len(perms) == 0 {
		perms = []string{"none"}
	}
	line("permissions", perms)
	if a.Domain != "" {
		line("domain", []string{a.Domain})
	}
	if a.PrefersBorder != nil {
		line("prefers border", []string{map[bool]string{true: "yes", false: "no"}[*a.PrefersBorder]})
	}
	return b.String()
}

// appOf is the APP cell of a tool: the UI resource of its MCP App, "" for
// a tool without one.
func appOf(e entry) string {
	if a, ok := mcp.ReadToolApp(e.Meta); ok {
		return a.ResourceURI
	}
	return ""
}

// ReadApp is one UI resource of a resources/read result: its URI and app
// metadata.
type ReadApp struct {
	URI string
	App mcp.AppResource
}

// ReadApps returns the contents of a resources/read result that carry app
// metadata (_meta.ui), in order; nil when none does.
func ReadApps(res json.RawMessage) []ReadApp {
	var r struct {
		Contents []struct {
			URI  string          `json:"uri"`
			Meta json.RawMessage `json:"_meta"`
		} `json:"contents"`
	}
	if json.Unmarshal(res, &r) != nil {
		return nil
	}
	var out []ReadApp
	for _, c := range r.Contents {
		if a, ok := mcp.ReadAppResource(c.Meta); ok {
			out = append(out, ReadApp{URI: c.URI, App: a})
		}
	}
	return out
}
