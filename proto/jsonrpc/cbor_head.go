package jsonrpc

import (
	"encoding/binary"
	"fmt"
	"io"
)

// CBOR major types (RFC 8949 §3.1).
const (
	cborUint   byte = 0
	cborNegint byte = 1
	cborBytes  byte = 2
	cborText   byte = 3
	cborArray  byte = 4
	cborMap    byte = 5
	cborTag    byte = 6
	cborSimple byte = 7
)

// cborIndefinite is the additional-information value of an indefinite length.
const cborIndefinite byte = 31

// cborBreak is the "break" stop code ending an indefinite-length item.
const cborBreak byte = 0xff

// cborNull is the CBOR null.
const cborNull = cborSimple<<5 | 22

// cborMajorNames names the major types in error messages.
var cborMajorNames = [8]string{
	"unsigned integer", "negative integer", "byte string", "text string",
	"array", "map", "tag", "simple value or float",
}

// appendCBORHead appends the initial byte and argument of a data item in the
// shortest form (preferred serialization).
func appendCBORHead(dst []byte, major byte, arg uint64) []byte {
	m := major << 5
	switch {
	case arg < 24:
		return append(dst, m|byte(arg))
	case arg <= 0xff:
		return append(dst, m|24, byte(arg))
	case arg <= 0xffff:
		return binary.BigEndian.AppendUint16(append(dst, m|25), uint16(arg))
	case arg <= 0xffffffff:
		return binary.BigEndian.AppendUint32(append(dst, m|26), uint32(arg))
	}
	return binary.BigEndian.AppendUint64(append(dst, m|27), arg)
}

// cborHead is the decoded initial byte and argument of a data item.
type cborHead struct {
	major byte   // major type 0…7
	info  byte   // additional information 0…31
	arg   uint64 // argument (length, value, tag number or float bits)
	next  int    // offset of the byte after the head
}

// indefinite reports whether the head opens an indefinite-length item (or is
// the break code, for major type 7).
func (h cborHead) indefinite() bool { return h.info == cborIndefinite }

// readCBORHead decodes the head at b[off:]. A missing or cut head is
// io.ErrUnexpectedEOF; a head RFC 8949 §3 calls not well-formed is a
// *cborSyntaxError. The break code (0xff) is returned as a head; callers
// decide where it may stand.
func readCBORHead(b []byte, off int) (cborHead, error) {
	if off >= len(b) {
		return cborHead{}, io.ErrUnexpectedEOF
	}
	h := cborHead{major: b[off] >> 5, info: b[off] & 0x1f, next: off + 1}
	var size int
	switch {
	case h.info < 24:
		h.arg = uint64(h.info)
		return h, nil
	case h.info <= 27:
		size = 1 << (h.info - 24)
	case h.info == cborIndefinite && h.major != cborUint && h.major != cborNegint && h.major != cborTag:
		return h, nil
	case h.info == cborIndefinite:
		return cborHead{}, malformed("%s at offset %d has an indefinite length", cborMajorNames[h.major], off)
	default:
		return cborHead{}, malformed("item at offset %d has reserved additional information %d", off, h.info)
	}
	if len(b)-h.next < size {
		return cborHead{}, io.ErrUnexpectedEOF
	}
	for _, c := range b[h.next : h.next+size] {
		h.arg = h.arg<<8 | uint64(c)
	}
	h.next += size
	if h.major == cborSimple && size == 1 && h.arg < 32 {
		return cborHead{}, malformed("simple value %d at offset %d uses the two-byte form, which is for 32…255 only", h.arg, off)
	}
	return h, nil
}

// cborSyntaxError is a body that is not well-formed CBOR (RFC 8949 §5.3.1):
// a reserved head, a misplaced break code, a broken indefinite-length string.
type cborSyntaxError struct{ detail string }

// Error returns the detail.
func (e *cborSyntaxError) Error() string { return e.detail }

// malformed builds a *cborSyntaxError.
func malformed(format string, args ...any) error {
	return &cborSyntaxError{detail: fmt.Sprintf(format, args...)}
}
