package sse

import (
	"bytes"
	"math"
)

// fieldKind is what a line of an event stream sets.
type fieldKind uint8

const (
	fieldUnknown fieldKind = iota
	fieldData
	fieldEvent
	fieldID
	fieldRetry
	fieldComment
)

// lineState is the line being read; it arrives in pieces of any size.
type lineState struct {
	offset    int64 // where the line starts in the stream
	length    int64 // bytes of it so far, its line end excluded
	inName    bool  // no colon yet
	name      [5]byte
	nameLen   int // past len(name): a name no field has
	skipSpace bool
	kind      fieldKind
	value     []byte // the value of an event, id, retry or comment line
}

// start begins a line at stream offset off.
func (l *lineState) start(off int64) {
	l.offset, l.length = off, 0
	l.inName, l.nameLen, l.skipSpace = true, 0, false
	l.kind = fieldUnknown
	l.value = l.value[:0]
}

// take consumes seg, the next bytes of the line. It returns the part of
// seg that belongs to a data value (the caller appends it where data goes);
// the values of other fields are kept in l.value.
func (l *lineState) take(seg []byte) []byte {
	if l.inName {
		colon := bytes.IndexByte(seg, ':')
		name := seg
		if colon >= 0 {
			name = seg[:colon]
		}
		if l.nameLen+len(name) <= len(l.name) {
			copy(l.name[l.nameLen:], name)
		}
		l.nameLen += len(name)
		if colon < 0 {
			return nil
		}
		l.inName, l.skipSpace = false, true
		l.kind = l.named()
		if l.nameLen == 0 {
			l.kind = fieldComment
		}
		seg = seg[colon+1:]
	}
	if len(seg) == 0 {
		return nil
	}
	if l.skipSpace {
		l.skipSpace = false
		if seg[0] == ' ' {
			seg = seg[1:]
		}
	}
	switch l.kind {
	case fieldData:
		return seg
	case fieldEvent, fieldID, fieldRetry, fieldComment:
		l.value = append(l.value, seg...)
	}
	return nil
}

// finish ends the line and returns the value of a non-data field. A line
// without a colon is the field it names with an empty value.
func (l *lineState) finish() []byte {
	if l.inName {
		l.kind = l.named()
		l.value = l.value[:0]
	}
	l.length = 0
	return l.value
}

// named is the field the line's name names.
func (l *lineState) named() fieldKind {
	if l.nameLen > len(l.name) {
		return fieldUnknown
	}
	switch string(l.name[:l.nameLen]) {
	case "data":
		return fieldData
	case "event":
		return fieldEvent
	case "id":
		return fieldID
	case "retry":
		return fieldRetry
	}
	return fieldUnknown
}

// parseRetry reads a retry value: only ASCII digits count; a value past
// the int64 range saturates.
func parseRetry(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			n = math.MaxInt64
		} else {
			n = n*10 + d
		}
	}
	return n, true
}

// finder finds one byte in the buffered stream, remembering how far it
// looked so no byte is scanned twice for it.
type finder struct {
	at    int64 // stream offset of the byte found, or where the search stopped
	found bool
}

// index returns the index in c (which starts at stream offset base) of the
// first b at or after i, or -1.
func (f *finder) index(c []byte, base int64, i int, b byte) int {
	from := i
	if f.at >= base+int64(i) {
		if f.found && f.at < base+int64(len(c)) {
			return int(f.at - base)
		}
		from = min(int(f.at-base), len(c))
	}
	j := bytes.IndexByte(c[from:], b)
	if j < 0 {
		f.at, f.found = base+int64(len(c)), false
		return -1
	}
	f.at, f.found = base+int64(from+j), true
	return from + j
}
