package ui

import (
	"cmp"
	"strconv"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// The SSE section of the streams pane: one row per SSE stream of an HTTP
// session, with its connection, what it carries, its events and bytes so
// far, its last event id, its state and why it broke or was cancelled.
// Every cell goes through look.Cell, so what a server sent (event ids,
// the words of an error) never reaches the terminal raw.

// sseColumns are the widths of the SSE section's flexible columns.
type sseColumns struct{ what, why int }

// sseFixed is the width of the SSE section's fixed columns and their
// separators: connection, events, bytes, last id, state.
const sseFixed = 14 + 1 + 1 + 7 + 1 + 10 + 1 + 12 + 1 + 9 + 1

// sseColumnsFor lays the SSE section out in w cells: what a stream
// carries takes up to 30 cells, why it ended what is left.
func sseColumnsFor(w int) sseColumns {
	what := max(min(w-sseFixed, 30), 8)
	return sseColumns{what: what, why: max(w-sseFixed-what, 0)}
}

// row lays one SSE stream's cells out.
func (c sseColumns) row(conn, what, events, size, lastID, state, why string) string {
	return look.Cell(conn, 14) + " " + look.Cell(what, c.what) + " " + look.CellRight(events, 7) + " " +
		look.CellRight(size, 10) + " " + look.Cell(lastID, 12) + " " + look.Cell(state, 9) + " " + look.Cell(why, c.why)
}

// header is the SSE section's column header.
func (c sseColumns) header(st *look.Styles, w int) string {
	return st.Ink.Muted.Paint(look.Cell(c.row("connection", "SSE stream", "events", "bytes", "last id", "state", "why"), w))
}

// selectedSSE returns the selected SSE stream.
func (p *streamsPane) selectedSSE() (capture.SSEStats, bool) {
	i := p.sel - len(p.list)
	if i < 0 || i >= len(p.sse) {
		return capture.SSEStats{}, false
	}
	return p.sse[i], true
}

// sseRow draws row i, an SSE stream.
func (p *streamsPane) sseRow(c sseColumns, i, w int, focused bool) string {
	s := p.sse[i-len(p.list)]
	text := c.row(s.Conn, sseWhat(s), strconv.FormatInt(s.Events, 10), look.ByteSize(s.Bytes),
		cmp.Or(s.LastID, "-"), s.State.String(), s.Why)
	failed := s.State == capture.SSEBroken || s.State == capture.SSECancelled
	return p.paintRow(text, "", w, i == p.sel, focused, rowTintOf(s.State == capture.SSEDone, failed))
}

// sseWhat says what an SSE stream carries: "tools/call #3", "subscription
// #4", "GET stream", "legacy stream"; a resume or a reconnect says so.
func sseWhat(s capture.SSEStats) string {
	var what string
	switch s.Kind {
	case capture.SSEGet:
		what = "GET stream"
	case capture.SSELegacy:
		what = "legacy stream"
	default:
		what = cmp.Or(s.Method, "POST")
		if s.Method == mcp.MethodSubscriptionsListen {
			what = "subscription"
		}
		if s.ReqID != "" {
			what += " #" + s.ReqID
		}
	}
	if s.Kind == capture.SSEResume || s.After != "" {
		what += ", resumed"
	}
	return what
}
