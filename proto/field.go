package proto

import "fmt"

// FieldKind says what part of a framed unit a Field covers.
type FieldKind uint8

// Kinds of annotated byte range.
const (
	FieldHeader    FieldKind = iota // a header field: length prefix, request id, tag, GUID…
	FieldBody                       // the body or payload
	FieldDelimiter                  // a delimiter such as the LF ending an NDJSON line
)

// Field annotates a byte range of a framed unit so that a hex view can label it.
type Field struct {
	Offset int       // from the first byte of the unit
	Len    int       // number of bytes
	Name   string    // the field's name in the spec: "length", "request id", "stream tag", …
	Value  string    // the decoded value, for display
	Kind   FieldKind // header, body or delimiter
}

// Encoding is the encoding of a unit's body.
type Encoding uint8

// Encodings of a body.
const (
	EncJSON Encoding = iota
	EncCBOR
	EncBinary
	EncText
)

// String names the encoding as MCP-Flow does ("json", "cbor").
func (e Encoding) String() string {
	names := [...]string{"json", "cbor", "binary", "text"}
	if int(e) < len(names) {
		return names[e]
	}
	return fmt.Sprintf("encoding(%d)", e)
}
