package ui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// columns are the widths of the traffic pane's columns for one pane width;
// latency and encoding are left out on narrow panes.
type columns struct {
	label         int
	latency, enc  int
	time, id, dir int
	size          int
}

// trafficColumns lays the columns out in w columns.
func trafficColumns(w int) columns {
	c := columns{time: 12, dir: 1, id: 6, size: 9, latency: 7, enc: 6}
	if w < 72 {
		c.latency, c.enc = 0, 0
	}
	fixed := c.time + 1 + c.dir + 1 + c.id + 1 + 1 + c.size
	if c.latency > 0 {
		fixed += c.latency + 1 + c.enc + 1
	}
	c.label = max(w-fixed, 8)
	return c
}

// header renders the column titles.
func (c columns) header() string {
	return c.join("time", " ", "id", "message", "latency", "enc", "size")
}

// join lays out one row of plain cells.
func (c columns) join(tm, dir, id, label, latency, enc, size string) string {
	return look.Cell(tm, c.time) + " " + look.Cell(dir, c.dir) + " " + c.tail(id, label, latency, enc, size)
}

// tail lays out the cells after the time and the direction.
func (c columns) tail(id, label, latency, enc, size string) string {
	var b strings.Builder
	b.WriteString(look.CellRight(id, c.id))
	b.WriteByte(' ')
	b.WriteString(look.Cell(label, c.label))
	b.WriteByte(' ')
	if c.latency > 0 {
		b.WriteString(look.CellRight(latency, c.latency))
		b.WriteByte(' ')
		b.WriteString(look.Cell(enc, c.enc))
		b.WriteByte(' ')
	}
	b.WriteString(look.CellRight(size, c.size))
	return b.String()
}

// rowTone is how a traffic row is painted beyond its direction.
type rowTone uint8

const (
	tonePlain  rowTone = iota
	toneCancel         // a cancelled request, a cancellation, its answer, progress after it
	toneBad            // a decode error, a failed write, an error response, a failed tool result
	toneProbe          // a probe and its answer (probe_row.go)
	toneProxy          // a proxy's mark: what it did to the traffic (proxy_rows.go)
)

// row renders one frame. An error row is painted in the error colour, a
// row of a cancellation in the warning colour and a probe's row muted; the
// selected row is painted whole.
func (p *trafficPane) row(f *capture.Frame, c columns, focused bool) string {
	label, tone := p.label(f)
	if _, found := p.x.views.findings.Frame(f.Seq); found {
		label = findingMark + label
	}
	label += p.x.deprecatedTag(f)
	var latency string
	if d, ok := p.x.latency(f); ok {
		latency = look.Duration(d)
	}
	arrow := "→"
	if f.Dir == capture.In {
		arrow = "←"
	}
	if p.proxied {
		arrow = look.Cell(proxiedDir(f, p.x), c.dir)
	}
	tail := c.tail(frameID(f), label, latency, f.Enc.String(), look.ByteSize(int64(f.Size)))
	if f.Seq == p.sel || tone != tonePlain {
		text := look.Cell(look.ClockTime(f.Time), c.time) + " " + arrow + " " + tail
		switch {
		case f.Seq != p.sel && tone == toneBad:
			return p.st.Ink.Error.Paint(text)
		case f.Seq != p.sel && tone == toneProbe:
			return p.st.Ink.Muted.Paint(text)
		case f.Seq != p.sel && tone == toneProxy:
			return p.st.Ink.Accent.Paint(text)
		case f.Seq != p.sel:
			return p.st.Ink.Warn.Paint(text)
		case focused:
			return p.st.Ink.SelFocused.Paint(text)
		case tone == toneBad:
			return p.st.Ink.SelError.Paint(text)
		}
		return p.st.Ink.SelBlurred.Paint(text)
	}
	dirTint := p.st.Ink.Out
	if f.Dir == capture.In {
		dirTint = p.st.Ink.In
	}
	return p.st.Ink.Muted.Paint(look.Cell(look.ClockTime(f.Time), c.time)) + " " + dirTint.Paint(arrow) + " " + p.dimDeprecated(tail)
}

// frameLabel says what a frame is: the method of a request or
// notification (with the method of its call for progress and
// cancellations), "result" or the error (code, message and its name in
// the dialect and context) of a response with the method of its call, a
// decode error, or the channel of a stream chunk, datagram or stderr
// line. A cancelled request, its cancellation and progress that came
// after it are marked; a probe and its answer say what the session
// concluded (probe_row.go); a tools/call result that is nonetheless a
// failure says why (tool_results.go); tone says how the row is painted.
func frameLabel(f *capture.Frame, x *index, d mcp.Dialect) (label string, tone rowTone) {
	switch {
	case f.Err != nil && f.Dir == capture.Out:
		// mcpscope decodes nothing it sends: the frame is a failed write.
		return "write failed: " + f.Err.Error(), toneBad
	case f.Err != nil:
		return "decode error: " + f.Err.Error(), toneBad
	}
	c, known := x.lookup(f)
	call := ""
	if known {
		call = c.method
	}
	after := afterCancel(f, c)
	switch f.Chan.Kind {
	case capture.Stream:
		return chunkLabel(f, fmt.Sprintf("stream %d/%d", f.Chan.ReqID, f.Chan.Tag), call), tonePlain
	case capture.Datagram:
		what := "datagram " + flow.DatagramChannel(f.Chan.Ch).String()
		if after && flow.DatagramChannel(f.Chan.Ch) == flow.ChannelProgress {
			return joinNonEmpty(what+" ✕ "+markAfterCancel, call), toneCancel
		}
		return joinNonEmpty(what, call), tonePlain
	case capture.Stderr:
		return "stderr " + look.ExpandTabs(termtext.Block(string(bodyOf(f)))), tonePlain // tabs keep the line's columns
	case capture.HTTP:
		line, _, _ := strings.Cut(string(f.Raw), "\n")
		return "http " + line, tonePlain
	case capture.Proxy:
		return proxyLabel(f), toneProxy
	}
	m := f.Msg
	switch {
	case m == nil && f.Enc == proto.EncText:
		if name := sseEventName(f); name != "" && name != "message" {
			return "event " + termtext.Line(name) + " (no JSON-RPC message)", tonePlain // the legacy endpoint event
		}
		// An SSE event with no data: a priming event, a heartbeat.
		return "event without a message (priming or heartbeat)", tonePlain
	case m == nil:
		if typ, ok := gateway.ToolsFrameType(f.Raw); ok {
			return termtext.Line(gateway.ToolsFrameSummary(typ)), tonePlain
		}
		if label, ok := gatewayLabel(f.Raw); ok {
			return label, tonePlain
		}
		return "batch", tonePlain
	}
	switch m.Kind() {
	case jsonrpc.KindRequest:
		if label, ok := probeQuestion(m.Method); ok {
			return label, toneProbe
		}
		label := m.Method
		if call != "" {
			label = call
		}
		if known && c.cancelSeq != 0 {
			return label + " " + markCancelled, toneCancel
		}
		return label, tonePlain
	case jsonrpc.KindNotification:
		if _, ok := cancelledID(f); ok {
			return joinNonEmpty(m.Method+" "+markCancelled, call), toneCancel
		}
		if _, ok := progressID(f); ok && after {
			return joinNonEmpty(m.Method+" ✕ "+markAfterCancel, call), toneCancel
		}
		return joinNonEmpty(m.Method, call), tonePlain
	}
	if label, ok := probeAnswer(f, c, x, d); ok {
		return label, toneProbe
	}
	switch m.Kind() {
	case jsonrpc.KindResult:
		if known && c.failure != nil {
			return joinNonEmpty(toolFailureLabel(c.failure), call), toneBad
		}
		if known && c.checkingResult(f) {
			return joinNonEmpty("result "+markChecking, call), tonePlain
		}
		return joinNonEmpty("result", call), tonePlain
	case jsonrpc.KindError:
		text := errorText(m.Error, d, errorContext(f, c))
		label := joinNonEmpty(text, call)
		if after {
			return label, toneCancel // the answer to a cancellation reads as one
		}
		return label, toneBad
	}
	return "invalid message", toneBad
}

// afterCancel reports whether frame f of call c (nil: not known) came
// after a cancellation of the call.
func afterCancel(f *capture.Frame, c *callInfo) bool {
	return c != nil && c.cancelSeq != 0 && f.Seq > c.cancelSeq
}

// errorContext is what is known of the request the response f of call c
// (nil: not known) answers, for naming its error code.
func errorContext(f *capture.Frame, c *callInfo) mcp.ErrorContext {
	if c == nil {
		return mcp.ErrorContext{}
	}
	method, _, _ := strings.Cut(c.method, " ")
	return mcp.ErrorContext{Method: method, Cancelled: afterCancel(f, c)}
}

// errorText renders an error object: the raw code and message always, and
// beside them the code's name in the dialect and the context of the
// request it answers, unless the message already says it.
func errorText(e *jsonrpc.Error, d mcp.Dialect, c mcp.ErrorContext) string {
	s := fmt.Sprintf("error %d %s", e.Code, e.Message)
	if name := mcp.ErrorNameBeside(d, e, c); name != "" {
		s += " [" + name + "]"
	}
	return s
}

// joinNonEmpty joins a and b with " · ", leaving out an empty b.
func joinNonEmpty(a, b string) string {
	if b == "" {
		return a
	}
	return a + " · " + b
}

// gatewayLabel names a gateway StreamMessage (seed 003): its type, its
// stream's GUID cut to its first group, and what a start invokes. ok is
// false when raw is not a StreamMessage.
func gatewayLabel(raw []byte) (label string, ok bool) {
	m, err := gateway.DecodeStreamMessage(raw)
	switch {
	case errors.Is(err, gateway.ErrNotStreamMessage):
		return "", false
	case err != nil:
		return "gateway StreamMessage", true
	}
	id := m.ID.String()
	label = "gateway " + m.Type + " " + id[:8]
	switch {
	case m.Type == gateway.StreamStart:
		label += " · " + termtext.Line(m.Meta.Method)
	case m.Type == gateway.StreamError:
		label += fmt.Sprintf(" · %d %s", m.Error.Code, termtext.Line(m.Error.Message))
	}
	return label, true
}

// sseEventName is the value of an SSE frame's event field, or "".
func sseEventName(f *capture.Frame) string {
	for _, fd := range f.Fields {
		if fd.Name == "event" {
			return fd.Value
		}
	}
	return ""
}

// label is frameLabel, with a gateway stream's chunk named by its short
// GUID and way, as its row in the streams pane names it, instead of a
// request id it does not have.
func (p *trafficPane) label(f *capture.Frame) (string, rowTone) {
	if p.store == nil || f.Err != nil {
		return frameLabel(f, p.x, p.dialect)
	}
	if s, ok := gatewayStream(f, p.store.Stream); ok {
		call := ""
		if c, known := p.x.lookup(f); known {
			call = c.method
		}
		return chunkLabel(f, "gateway stream "+streamRef(s), call), tonePlain
	}
	return frameLabel(f, p.x, p.dialect)
}

// chunkLabel is the label of a stream frame of the stream named name:
// its header (no payload) or a chunk, and the call it belongs to.
func chunkLabel(f *capture.Frame, name, call string) string {
	what := "chunk"
	if len(bodyOf(f)) == 0 {
		what = "header"
	}
	return joinNonEmpty(name+" "+what, call)
}
