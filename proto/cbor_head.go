package proto

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

// readCBORHead decodes the head at b[off:].
func readCBORHead(b []byte, off int) (cborHead, error) {
	if off >= len(b) {
		return cborHead{}, fmt.Errorf("CBOR item at offset %d is missing: %w", off, io.ErrUnexpectedEOF)
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
	default:
		return cborHead{}, fmt.Errorf("CBOR item at offset %d has reserved additional information %d", off, h.info)
	}
	if len(b)-h.next < size {
		return cborHead{}, fmt.Errorf("CBOR head at offset %d is truncated: %w", off, io.ErrUnexpectedEOF)
	}
	for _, c := range b[h.next : h.next+size] {
		h.arg = h.arg<<8 | uint64(c)
	}
	h.next += size
	return h, nil
}
