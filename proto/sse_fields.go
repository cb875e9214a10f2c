package proto

import "bytes"

// SSEEventFields annotates the bytes of one SSE event block.
func SSEEventFields(raw []byte) []Field {
	var fs []Field
	off := 0
	for off < len(raw) {
		end := bytes.IndexAny(raw[off:], "\r\n")
		if end < 0 {
			end = len(raw) - off
		}
		line := raw[off : off+end]
		name, value := "comment", line
		if len(line) > 0 && line[0] != ':' {
			n, v, ok := bytes.Cut(line, []byte(":"))
			name, value = string(n), nil
			if ok {
				value = bytes.TrimPrefix(v, []byte(" "))
			}
		}
		if len(line) > 0 {
			kind := FieldHeader
			if name == "data" {
				kind = FieldBody
			}
			fs = append(fs, Field{Offset: off, Len: len(line), Name: name, Value: string(value[:min(len(value), 256)]), Kind: kind})
		}
		off += end
		if off < len(raw) {
			n := 1
			if raw[off] == '\r' && off+1 < len(raw) && raw[off+1] == '\n' {
				n = 2
			}
			fs = append(fs, Field{Offset: off, Len: n, Name: "line end", Kind: FieldDelimiter})
			off += n
		}
	}
	return fs
}
