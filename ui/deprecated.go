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
// f is a request or notification of a feature the session's version
// deprecates, or a result that asks for one (an input_required result's
// inputRequests: mcp.DeprecatedAsks, read once by the index); "" otherwise.
func (x *index) deprecatedTag(f *capture.Frame) string {
	if f.Msg == nil {
		return ""
	}
	if f.Msg.Method == "" {
		if c, ok := x.lookup(f); ok && c.asksDeprecated && f.Msg.Result != nil {
			return " " + markDeprecated
		}
		return ""
	}
	if _, _, ok := mcp.DeprecatedFeature(x.version, f.Msg.Method); ok {
		return " " + markDeprecated
	}
	return ""
}

// maxVersionFrame is the largest frame noteVersion reads: an initialize
// result or a request's _meta is small.
const maxVersionFrame = 64 << 10

// noteVersion learns the session's protocol version from a frame that
// names it (mcp.VersionNamed), the same rule the headless notes and the
// findings follow, so a replayed, proxied or attached session is tagged as
// a live one is.
func (x *index) noteVersion(f *capture.Frame) {
	if f.Msg == nil || f.Size > maxVersionFrame {
		return
	}
	if v := mcp.VersionNamed(f.Msg, f.Dir == capture.In); v != "" {
		x.version = v
	}
}

// noteDeprecatedAsks marks call c when its result f asks for a feature the
// session's version deprecates.
func (x *index) noteDeprecatedAsks(f *capture.Frame, c *callInfo) {
	if f.Dir == capture.In && f.Msg.Result != nil && len(mcp.DeprecatedAsks(x.version, f.Msg.Result)) > 0 {
		c.asksDeprecated = true
	}
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
