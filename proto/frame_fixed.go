package proto

import (
	"fmt"
	"io"
	"strconv"
)

// SplitHeader splits a unit with a fixed-size header into header and
// payload. A unit shorter than its header is an error wrapping
// io.ErrUnexpectedEOF.
func SplitHeader(b []byte, size int, unit string) (header, payload []byte, err error) {
	if len(b) < size {
		return nil, nil, fmt.Errorf("%s header needs %d bytes, got %d: %w", unit, size, len(b), io.ErrUnexpectedEOF)
	}
	return b[:size], b[size:], nil
}

// PayloadField annotates the payload after a header, or nothing when it is empty.
func PayloadField(fields []Field, offset, n int) []Field {
	if n == 0 {
		return fields
	}
	return append(fields, Field{Offset: offset, Len: n, Name: "payload", Value: ByteCount(n), Kind: FieldBody})
}

// ByteCount renders a length for a Field value: "1 byte", "227 bytes".
func ByteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	var b [32]byte
	return string(append(strconv.AppendInt(b[:0], int64(n), 10), " bytes"...)) // one allocation
}

// UintField is a header field holding an unsigned number.
func UintField(offset, n int, name string, v uint64) Field {
	return Field{Offset: offset, Len: n, Name: name, Value: strconv.FormatUint(v, 10), Kind: FieldHeader}
}
