package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/hexview"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Bounds of what the detail pane formats.
const (
	maxPretty     = 1 << 20 // larger JSON is shown as its head, unindented
	plainHead     = 64 << 10
	errorDumpSize = 256 // bytes of a frame that failed to decode shown in hex
	sideBySideMin = 90  // width from which CBOR notation goes beside the JSON
)

// detailInput is what the detail of one frame is built from.
type detailInput struct {
	f       *capture.Frame
	call    *callInfo // the frame's call, when the index knows it
	latency string
	dialect mcp.Dialect
	st      *look.Styles
	gateway string // the GUID and way of the gateway stream the frame is a chunk of; "" for any other frame
	proxied bool   // a proxied session's frame: its sender is the host or the server
	x       *index // what the proxied session's marks said (an injected request), when proxied

	// tools are the outputSchemas of the tools listed, to check a
	// tools/call result against.
	tools *toolSchemas
	// reports keep the structured report of each result shown, made once.
	reports *structuredReports
}

// detailContent lays out the detail of a frame for width w: metadata,
// decode error with the offending bytes, then the body (pretty JSON, with
// CBOR diagnostic notation beside it for a CBOR body). Server text is made
// safe for the terminal; the body is coloured only where it is shown.
func detailContent(in detailInput, w int) rowBlock {
	f := in.f
	var b strings.Builder
	b.WriteString(metadata(in, w))
	b.WriteString(resultFacts(in, w))
	if f.Err != nil {
		b.WriteString("\n\n" + in.st.Ink.Error.Paint(termtext.Line("decode error: "+f.Err.Error())) + "\n")
		raw := f.Raw[:min(len(f.Raw), errorDumpSize)]
		dump := hexview.Dump{Data: raw, Fields: f.Fields, Size: len(f.Raw)}
		rl := dump.LayoutFor(w)
		b.WriteString(dump.RenderLayout(0, dump.Rows(rl.PerRow), rl, in.st.Hex))
	}
	b.WriteString("\n")
	return stackedRows{splitRows(b.String()), mediaRows(in, w), bodyView(in, w)}
}

// metadata renders the headers of a frame and its fields in lines of w
// columns, broken between fields (and inside a field only at its words
// when it is wider than w).
func metadata(in detailInput, w int) string {
	f := in.f
	kept := f.Kept
	if kept == 0 && len(f.Raw) > 0 {
		kept = len(f.Raw)
	}
	channel := f.Chan.String()
	if in.gateway != "" {
		channel = "gateway stream " + in.gateway
	}
	dir := f.Dir.String()
	if in.proxied {
		dir = proxiedFrom(f, in.x)
	}
	head := []string{fmt.Sprintf("seq %d", f.Seq), f.Time.Format("2006-01-02 15:04:05.000"), dir,
		"conn " + f.Conn, channel, fmt.Sprintf("%s (kept %s)", look.ByteSize(int64(f.Size)), look.ByteSize(int64(kept))), f.Enc.String()}
	var out []string
	out = append(out, paintLines(in.st.Ink.Muted, fieldLines(head, w))...)
	if m := f.Msg; m != nil {
		out = append(out, fieldLines(messageFields(in, m), w)...)
		if m.Kind() == jsonrpc.KindResult && in.call != nil && in.call.failure != nil {
			out = append(out, paintLines(in.st.Ink.Error, fieldLines([]string{in.call.failure.Error()}, w))...)
		}
		if m.Kind() == jsonrpc.KindResult && in.call != nil && in.call.checkingResult(f) {
			out = append(out, paintLines(in.st.Ink.Muted, fieldLines([]string{checkingText}, w))...)
		}
	}
	fields := make([]string, 0, len(f.Fields))
	for _, fd := range f.Fields {
		if fd.Value == "" {
			continue // a field with nothing to say is not drawn ("body =")
		}
		field := fmt.Sprintf("%s = %s", fd.Name, fd.Value)
		if len(fields) == 0 {
			field = "fields: " + field
		}
		fields = append(fields, field)
	}
	if len(fields) > 0 {
		out = append(out, paintLines(in.st.Ink.Muted, fieldLines(fields, w))...)
	}
	return strings.Join(out, "\n")
}

// messageFields are what the detail says of a message: its kind, id,
// method (and its call's), latency and error.
func messageFields(in detailInput, m *jsonrpc.Message) []string {
	parts := []string{m.Kind().String()}
	if id := frameID(in.f); id != "" {
		parts = append(parts, "id "+id)
	}
	switch {
	case m.Kind() == jsonrpc.KindRequest && in.call != nil && in.call.method != "":
		parts = append(parts, in.call.method)
	case m.Method != "":
		parts = append(parts, m.Method)
		if in.call != nil && in.call.method != "" {
			parts = append(parts, "for "+in.call.method)
		}
	case in.call != nil && in.call.method != "":
		parts = append(parts, in.call.method)
	}
	if in.latency != "" {
		parts = append(parts, "latency "+in.latency)
	}
	if m.Kind() == jsonrpc.KindRequest && in.call != nil && in.call.cancelSeq != 0 {
		parts = append(parts, fmt.Sprintf("%s by frame %d", markCancelled, in.call.cancelSeq))
	}
	if m.Error != nil {
		parts = append(parts, errorText(m.Error, in.dialect, errorContext(in.f, in.call)))
	}
	return parts
}

// fieldLines lays fields out joined by " · " in lines of at most w
// columns, breaking only between fields; a field wider than w is wrapped
// at its words. Each field is made safe to print.
func fieldLines(fields []string, w int) []string {
	const sep = " · "
	w = max(w, 1)
	var out []string
	line, width := "", 0
	for _, fd := range fields {
		fd = termtext.Line(fd)
		fw := look.TextWidth(fd)
		switch {
		case width > 0 && width+len(sep)+fw <= w:
			line, width = line+sep+fd, width+len(sep)+fw
			continue
		case width > 0:
			out = append(out, line)
		}
		if fw <= w {
			line, width = fd, fw
			continue
		}
		rows := strings.Split(ansi.Wrap(fd, w, ""), "\n")
		out = append(out, rows[:len(rows)-1]...)
		line = rows[len(rows)-1]
		width = look.TextWidth(line)
	}
	if width > 0 || line != "" {
		out = append(out, line)
	}
	return out
}

// paintLines colours each line with t.
func paintLines(t look.Tint, lines []string) []string {
	for i, l := range lines {
		lines[i] = t.Paint(l)
	}
	return lines
}

// bodyView lays out the body of a frame.
func bodyView(in detailInput, w int) rowBlock {
	f := in.f
	if len(f.Raw) == 0 && f.Size > 0 && f.Msg == nil {
		return note(in.st.Ink.Muted, errNoBytes.Error())
	}
	switch f.Chan.Kind {
	case capture.Stderr:
		return plainRows(string(bodyOf(f)), w)
	case capture.HTTP:
		return plainRows(strings.ReplaceAll(string(f.Raw), "\r", ""), w)
	case capture.Stream:
		kind := "execution stream"
		if in.gateway != "" {
			kind = "gateway stream"
		}
		return note(in.st.Ink.Muted, fmt.Sprintf("%s payload: %s in this frame; x shows the bytes", kind, look.ByteSize(int64(len(bodyOf(f))))))
	case capture.Datagram:
		return datagramBody(in, w)
	}
	text, err := messageJSON(f)
	if err != nil {
		return note(in.st.Ink.Error, err.Error())
	}
	if f.Enc != proto.EncCBOR || f.Err != nil {
		return jsonView(text, w, in.st)
	}
	return withDiagnostic(jsonView(text, jsonWidth(w), in.st), bodyOf(f), w, in.st)
}

// note is one line of the pane's own words, server text in it made safe.
func note(st look.Tint, s string) fixedRows { return fixedRows{st.Paint(termtext.Line(s))} }

// plainRows is server text shown as it is, made safe and wrapped to w.
func plainRows(s string, w int) rowBlock {
	return newTextRows(termtext.BlockMax(s, 0), w, nil)
}

// datagramBody lays out the payload of a progress or log datagram as JSON;
// other channels carry bytes shown by the hex pane.
func datagramBody(in detailInput, w int) rowBlock {
	f := in.f
	_, payload, _, err := flow.ParseDatagramHeader(f.Raw)
	ch := flow.DatagramChannel(f.Chan.Ch)
	if err != nil || (ch != flow.ChannelProgress && ch != flow.ChannelLog) || f.Err != nil {
		return note(in.st.Ink.Muted, fmt.Sprintf("%s datagram payload: %s; x shows the bytes", ch, look.ByteSize(int64(len(payload)))))
	}
	text := payload
	if f.Enc == proto.EncCBOR {
		if text, err = jsonrpc.CBORToJSON(payload); err != nil {
			return note(in.st.Ink.Error, err.Error())
		}
		return withDiagnostic(jsonView(text, jsonWidth(w), in.st), payload, w, in.st)
	}
	return jsonView(text, w, in.st)
}

// jsonWidth is the width of the JSON column when CBOR notation goes beside it.
func jsonWidth(w int) int {
	if w >= sideBySideMin {
		return (w - 3) / 2
	}
	return w
}

// jsonView indents JSON text (the indentation stops growing past
// jsonindent.DefaultMaxDepth levels) and wraps it to w columns, coloured
// where it is shown. A huge body is shown as its head, unindented; text
// that is not JSON is shown as it is, made safe.
func jsonView(text []byte, w int, st *look.Styles) rowBlock {
	if len(text) > maxPretty {
		head := note(st.Ink.Muted, fmt.Sprintf("(%s of JSON; showing the first %s unindented)", look.ByteSize(int64(len(text))), look.ByteSize(plainHead)))
		return stackedRows{head, newTextRows(termtext.LineMax(string(text[:plainHead]), 0), w, nil)}
	}
	pretty, err := jsonrpc.PrettyJSON(text)
	if err != nil {
		return plainRows(string(text), w)
	}
	return newIndentedRows(termtext.BlockMax(string(pretty), 0), w, func(s string) string { return look.HighlightJSON(s, st) })
}

// withDiagnostic puts the CBOR diagnostic notation of body beside the JSON
// view on a wide pane, or below it on a narrow one.
func withDiagnostic(jsonRows rowBlock, body []byte, w int, st *look.Styles) rowBlock {
	diagWidth := w
	if w >= sideBySideMin {
		diagWidth = w - jsonWidth(w) - 3
	}
	var diag rowBlock
	if text, err := jsonrpc.DiagnoseCBOR(body); err != nil {
		diag = note(st.Ink.Error, err.Error())
	} else {
		diag = plainRows(text, diagWidth)
	}
	if w < sideBySideMin {
		return stackedRows{fixedRows{st.Ink.Muted.Paint("JSON")}, jsonRows, fixedRows{"", st.Ink.Muted.Paint("CBOR diagnostic notation")}, diag}
	}
	lw := jsonWidth(w)
	return besideRows{
		left:  stackedRows{fixedRows{st.Ink.Muted.Paint(look.Cell("JSON", lw))}, jsonRows},
		right: stackedRows{fixedRows{st.Ink.Muted.Paint(look.Cell("CBOR diagnostic notation", diagWidth))}, diag},
		lw:    lw,
	}
}
