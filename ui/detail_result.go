package ui

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/resulttext"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/structured"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// cachedMethods are the methods whose 2026-07-28 results carry cache
// hints (ttlMs, cacheScope).
var cachedMethods = map[string]bool{
	mcp.MethodDiscover: true, mcp.MethodToolsList: true, mcp.MethodPromptsList: true,
	mcp.MethodResourcesList: true, mcp.MethodResourceTemplatesList: true, mcp.MethodResourcesRead: true,
}

// resultFacts is what the detail pane says of a result beyond its JSON,
// in lines of w columns: a tools/call's structuredContent compared with
// its text and checked against the tool's outputSchema (when the tools/list
// was seen), a list or read result's cache hint and when it goes stale, a
// UI resource's app metadata. "" for any other frame.
func resultFacts(in detailInput, w int) string {
	f := in.f
	if f.Msg == nil || f.Msg.Kind() != jsonrpc.KindResult || in.call == nil {
		return ""
	}
	method, tool, _ := strings.Cut(in.call.method, " ")
	res := f.Msg.Result
	var out []string
	add := func(s string) {
		for _, l := range strings.Split(strings.TrimRight(ansi.Wrap(s, max(w, 1), " ,"), "\n"), "\n") {
			out = append(out, l)
		}
	}
	switch {
	case method == mcp.MethodToolsCall && structured.Named(res):
		add(in.st.Ink.Muted.Paint("structuredContent:"))
		var schema json.RawMessage
		var compiled func() (*schemacheck.Schema, error)
		if in.tools != nil {
			schema, compiled = in.tools.of(f.Conn, tool), in.tools.compiledApart(f.Conn, tool)
		}
		var lines []structured.Line
		ready := true
		if in.reports != nil {
			lines, ready = in.reports.of(f, schema, compiled)
		} else {
			lines = structured.Report(res, schema)
		}
		if !ready {
			add(in.st.Ink.Muted.Paint(checkingReportText))
		}
		add(strings.TrimRight(look.StructuredLines(lines, in.st), "\n"))
	case cachedMethods[method]:
		if h := mcp.ReadCacheHint(res); h.Present {
			add(in.st.Ink.Muted.Paint(look.CacheHintLine(h, f.Time, time.Time{})))
		}
	}
	if method == mcp.MethodResourcesRead {
		for _, a := range resulttext.ReadApps(res) {
			add(in.st.Ink.Muted.Paint(strings.TrimRight(resulttext.AppLines(a.App), "\n")))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "\n" + strings.Join(out, "\n")
}
