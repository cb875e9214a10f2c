package httphead

import (
	"bytes"

	"github.com/mcpscope/mcpscope/proto"
)

// Server-sent events: the text/event-stream format of the WHATWG HTML
// standard ("Server-sent events", "Parsing an event stream"). Lines end in
// CR LF, LF or CR; a line is a field "name:value" (one space after the colon
// is not part of the value), a field "name" with an empty value, or a
// comment that starts with a colon; a blank line ends an event. A stream may
// start with one UTF-8 byte order mark, which is skipped.

// sseValueMax bounds the Value of an annotation of server-sent event bytes:
// the field's value is shown, not kept whole.
const sseValueMax = 256

// sseBOM is the UTF-8 byte order mark a stream may start with.
var sseBOM = []byte("\xEF\xBB\xBF")

// SplitSSELine splits one line of an event stream, its line end excluded,
// as the standard's "process the field" step reads it. A line that starts
// with a colon is a comment: comment is true, name is empty and the value
// is the rest less one leading space. Otherwise the name runs to the first
// colon and the value starts after it, less one leading space; a line
// without a colon is a field named by the whole line, with an empty value.
// The value is line[valueAt:].
func SplitSSELine(line []byte) (name []byte, valueAt int, comment bool) {
	colon := bytes.IndexByte(line, ':')
	if colon < 0 {
		return line, len(line), false
	}
	valueAt = colon + 1
	if valueAt < len(line) && line[valueAt] == ' ' {
		valueAt++
	}
	return line[:colon], valueAt, colon == 0
}

// SSEEventFields annotates the bytes of one event of an event stream, as
// an SSE reader gives them: its lines, up to the blank line that ends it
// (a block cut short is annotated as far as it goes). Every byte is
// covered, in order:
//
//   - a leading byte order mark: "byte order mark" (header). A stream's
//     first event may carry it; the standard skips it there.
//   - each line: one header field named by the line's field ("data",
//     "event", "id", "retry", "comment", or an unknown field's own name)
//     whose Value is the field's value as sent, cut to its first 256 bytes
//     with "…" after a cut. On a data line that header covers the name,
//     the colon and the space after it, and the value that follows is the
//     "body" field (body kind) with its size as Value.
//   - each line end: "line end" (delimiter), Value "LF", "CR" or "CR LF";
//     a blank line is "end of event" when it ends one, "blank line" when
//     no field came before it.
//
// Values are raw server bytes: whoever shows them sanitizes them.
func SSEEventFields(raw []byte) []proto.Field {
	if len(raw) == 0 {
		return nil
	}
	// Room for most events (an event, an id, a data and the blank line
	// take eight fields) without a pass over a long data line to count.
	fields := make([]proto.Field, 0, 8)
	at := 0
	if bytes.HasPrefix(raw, sseBOM) {
		fields = append(fields, proto.Field{Offset: 0, Len: len(sseBOM), Name: "byte order mark", Value: "U+FEFF", Kind: proto.FieldHeader})
		at = len(sseBOM)
	}
	inEvent := false
	for at < len(raw) {
		end, term := sseLineEnd(raw[at:])
		if end > 0 {
			fields = sseLineFields(fields, raw[at:at+end], at)
			inEvent = true
		}
		if term > 0 {
			name := "line end"
			if end == 0 {
				name = "blank line"
				if inEvent {
					name = "end of event"
				}
				inEvent = false
			}
			fields = append(fields, proto.Field{Offset: at + end, Len: term, Name: name, Value: lineEndName(raw[at+end : at+end+term]), Kind: proto.FieldDelimiter})
		}
		at += end + term
	}
	return fields
}

// sseLineFields appends the annotations of one line that starts at offset
// at of its event.
func sseLineFields(fields []proto.Field, line []byte, at int) []proto.Field {
	name, valueAt, comment := SplitSSELine(line)
	value := line[valueAt:]
	switch {
	case comment:
		return append(fields, proto.Field{Offset: at, Len: len(line), Name: "comment", Value: sseShown(value), Kind: proto.FieldHeader})
	case string(name) == "data":
		fields = append(fields, proto.Field{Offset: at, Len: valueAt, Name: "data", Value: sseShown(value), Kind: proto.FieldHeader})
		if len(value) > 0 {
			fields = append(fields, proto.Field{Offset: at + valueAt, Len: len(value), Name: "body", Value: proto.ByteCount(len(value)), Kind: proto.FieldBody})
		}
		return fields
	}
	return append(fields, proto.Field{Offset: at, Len: len(line), Name: sseFieldName(name), Value: sseShown(value), Kind: proto.FieldHeader})
}

// sseFieldName is the name of a field other than data for display: the
// standard's own names without a copy, others as sseShown shows them.
func sseFieldName(name []byte) string {
	switch string(name) {
	case "event":
		return "event"
	case "id":
		return "id"
	case "retry":
		return "retry"
	}
	return sseShown(name)
}

// sseLineEnd finds the end of the first line of b: the index of its CR or
// LF and the length of its line end (2 for CR LF), or len(b) and 0 when b
// holds no line end.
func sseLineEnd(b []byte) (end, term int) {
	lf := bytes.IndexByte(b, '\n')
	scan := b
	if lf >= 0 {
		scan = b[:lf]
	}
	if cr := bytes.IndexByte(scan, '\r'); cr >= 0 {
		if cr+1 < len(b) && b[cr+1] == '\n' {
			return cr, 2
		}
		return cr, 1
	}
	if lf >= 0 {
		return lf, 1
	}
	return len(b), 0
}

// lineEndName names a line end: "CR LF", "CR" or "LF".
func lineEndName(b []byte) string {
	switch string(b) {
	case "\r\n":
		return "CR LF"
	case "\r":
		return "CR"
	}
	return "LF"
}

// sseShown is v for display: its first sseValueMax bytes, "…" after a cut.
func sseShown(v []byte) string {
	if len(v) > sseValueMax {
		return string(v[:sseValueMax]) + "…"
	}
	return string(v)
}
