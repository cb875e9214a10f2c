package explore

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/resulttext"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// appLine is the preview's line for a tool with an MCP App: its UI
// resource, who may call the tool, and the key that reads the resource's
// CSP and permissions (nothing is read before it is pressed); "" for any
// other tool.
func (x *Explorer) appLine(e *entry) string {
	if e.app == nil {
		return ""
	}
	line := "app " + termtext.Line(e.app.ResourceURI) + " (" + termtext.Line(strings.Join(e.app.VisibleTo(), ", ")) + ")"
	if e.app.Legacy {
		line += " · legacy _meta[\"" + mcp.MetaAppLegacyURI + "\"]"
	}
	var problems string
	for _, p := range e.app.Problems {
		problems += x.st.Ink.Warn.Paint("app problem: "+termtext.Line(p)) + "\n"
	}
	return x.st.Ink.Accent.Paint(line) + "\n" + problems + x.st.Ink.Muted.Paint(x.keys.App.Help().Key+" reads it: CSP and permissions") + "\n"
}

// readAppUI reads the UI resource of an app tool (resources/read), whose
// outcome shows the CSP and permissions above the HTML; a tool with no
// app says so.
func (x *Explorer) readAppUI(e entry) tea.Cmd {
	if e.app == nil {
		return errorCmd(x.keys.App.Help().Key + ": " + termtext.Line(e.name) + " has no MCP App (_meta.ui.resourceUri)")
	}
	// The call reads a resource: enter ("again") reads it again.
	ui := entry{tab: tabResources, name: e.app.ResourceURI, uri: e.app.ResourceURI, mime: mcp.AppMIMEType}
	x.target, x.tmpl, x.note, x.info = ui, nil, "", ""
	return x.call(mcp.MethodResourcesRead, map[string]any{"uri": e.app.ResourceURI}, e.app.ResourceURI)
}

// appUILines are the preview's lines for a UI resource whose list entry
// carries app metadata: its CSP and permissions as listed (enter reads
// the resource, whose contents say them authoritatively); "" for any
// other resource.
func (x *Explorer) appUILines(e *entry) string {
	if e.appUI == nil {
		return ""
	}
	return x.st.Ink.Accent.Paint("── app (as listed) ──") + "\n" + x.st.Ink.Muted.Paint(strings.TrimRight(resulttext.AppLines(*e.appUI), "\n")) + "\n"
}
