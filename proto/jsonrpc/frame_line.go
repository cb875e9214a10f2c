package jsonrpc

import "github.com/mcpscope/mcpscope/proto"

// NDJSON framing of the stdio transport (seed 001): one JSON-RPC message per
// line, the line ended by LF (0x0A). The stdio transport reads the lines
// itself; these helpers write one and annotate one.

// AppendLine appends body and the LF that ends its line. The body must be
// compact JSON (no raw newline), as Encode writes it.
func AppendLine(dst, body []byte) []byte {
	return append(append(dst, body...), '\n')
}

// LineFields annotates one line as read from a stdio stream: the body, then
// the delimiter — LF, or CR LF when a server writes Windows line ends. A last
// line without a delimiter is all body.
func LineFields(line []byte) []proto.Field {
	body, delim := len(line), 0
	switch {
	case len(line) >= 2 && line[len(line)-2] == '\r' && line[len(line)-1] == '\n':
		delim = 2
	case len(line) >= 1 && line[len(line)-1] == '\n':
		delim = 1
	}
	body -= delim
	fields := make([]proto.Field, 0, 2)
	if body > 0 {
		fields = append(fields, proto.Field{Offset: 0, Len: body, Name: "body", Value: proto.ByteCount(body), Kind: proto.FieldBody})
	}
	switch delim {
	case 1:
		fields = append(fields, proto.Field{Offset: body, Len: 1, Name: "delimiter", Value: "LF", Kind: proto.FieldDelimiter})
	case 2:
		fields = append(fields, proto.Field{Offset: body, Len: 2, Name: "delimiter", Value: "CR LF", Kind: proto.FieldDelimiter})
	}
	if len(fields) == 0 {
		return nil
	}
	return fields
}
