package ui

import (
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// markDeprecated tags the traffic row of a message of a feature the
// session's version deprecates (roots, sampling, logging in 2026-07-28,
// SEP-2577); it keeps working.
const markDeprecated = "· deprecated"

// deprecatedTag is the tag of f's row: markDeprecated before a space when
// f is a request or notification of a deprecated feature in version, ""
// otherwise.
func deprecatedTag(f *capture.Frame, version string) string {
	if f.Msg == nil || f.Msg.Method == "" {
		return ""
	}
	if _, _, ok := mcp.DeprecatedFeature(version, f.Msg.Method); ok {
		return " " + markDeprecated
	}
	return ""
}

// transportName is how the status bar names a link's transport: the
// legacy HTTP+SSE marked deprecated.
func transportName(via string) string {
	if via == mcp.TransportHTTPSSE {
		return via + " (deprecated)"
	}
	return via
}

// dimDeprecated paints the deprecated tag of a plain row's text dim.
func (p *trafficPane) dimDeprecated(row string) string {
	if !strings.Contains(row, markDeprecated) {
		return row
	}
	return strings.Replace(row, markDeprecated, p.st.Ink.Muted.Paint(markDeprecated), 1)
}
