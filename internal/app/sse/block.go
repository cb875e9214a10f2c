package sse

import (
	"bytes"
	"slices"

	"github.com/mcpscope/mcpscope/proto/httphead"
)

// block is the event being read.
type block struct {
	open    bool  // a line of it arrived
	start   int64 // stream offset of its first byte
	spilled bool  // it grew past MaxRaw: its head is in Reader.head, buf keeps only its last line
	ev      Event // Type, Retry, HasRetry and Comments so far
	hasData bool
	// While the event has one data line and buf keeps it whole, its value
	// is read in place: the stream span refAt to refEnd.
	inRef         bool
	refAt, refEnd int64
}

// applyLine applies the line buf[from:to], its line end excluded, to the
// event being read, as the standard's "process the field" step does.
func (r *Reader) applyLine(from, to int) {
	line := r.buf[from:to]
	name, at, comment := httphead.SplitSSELine(line)
	value := line[at:]
	b := &r.blk
	if comment {
		b.ev.Comments = append(b.ev.Comments, string(value))
		return
	}
	switch string(name) {
	case "data":
		r.addData(from+at, to)
	case "event":
		if string(value) != r.typ {
			r.typ = string(value)
		}
		b.ev.Type = r.typ
	case "id":
		if bytes.IndexByte(value, 0) < 0 && string(value) != r.idBuffer {
			r.idBuffer = string(value)
		}
	case "retry":
		if ms, ok := parseRetry(value); ok {
			b.ev.Retry, b.ev.HasRetry = ms, true
		}
	}
}

// addData adds the value buf[from:to] of a data line to the event's data:
// the first one in place while buf keeps the event whole, the others
// joined in r.data after a "\n".
func (r *Reader) addData(from, to int) {
	b := &r.blk
	switch {
	case !b.hasData && !b.spilled:
		b.hasData, b.inRef = true, true
		b.refAt, b.refEnd = r.base+int64(from), r.base+int64(to)
		return
	case !b.hasData:
		b.hasData = true
		r.data = r.data[:0]
	default:
		r.unref()
		r.growData(1)
		r.data = append(r.data, '\n')
	}
	r.growData(to - from)
	r.data = append(r.data, r.buf[from:to]...)
}

// unref copies the data value read in place into r.data.
func (r *Reader) unref() {
	b := &r.blk
	if b.inRef {
		s, e := int(b.refAt-r.base), int(b.refEnd-r.base)
		r.data = r.data[:0]
		r.growData(e - s)
		r.data = append(r.data, r.buf[s:e]...)
		b.inRef = false
	}
}

// growData makes room in r.data for n more bytes, at least doubling it, so
// that the data of a huge event costs about twice its size in all, not the
// many small steps of append.
func (r *Reader) growData(n int) {
	if len(r.data)+n > cap(r.data) {
		r.data = slices.Grow(r.data, max(n, cap(r.data)))
	}
}

// takeEvent returns the event read so far, its bytes ending at pos, and
// starts the next one. dispatched is true at a blank line: the last event
// ID string is set.
func (r *Reader) takeEvent(dispatched bool) Event {
	b := &r.blk
	ev := b.ev
	ev.ID = r.idBuffer
	ev.Offset, ev.Length = b.start, r.base+int64(r.pos)-b.start
	if b.spilled {
		ev.Raw, ev.RawCut = r.head[:len(r.head):len(r.head)], true
	} else {
		s := int(b.start - r.base)
		e := r.pos
		if ev.Length > r.lim.MaxRaw {
			e, ev.RawCut = s+int(r.lim.MaxRaw), true
		}
		ev.Raw = r.buf[s:e:e]
	}
	switch {
	case b.inRef:
		s, e := int(b.refAt-r.base), int(b.refEnd-r.base)
		ev.DataBytes = r.buf[s:e:e]
		if at := int(b.refAt - b.start); !b.spilled && at+len(ev.DataBytes) <= len(ev.Raw) {
			ev.DataInRaw, ev.DataAt = true, at
		}
	case b.hasData:
		ev.DataBytes = r.data[:len(r.data):len(r.data)]
		if ev.DataBytes == nil {
			ev.DataBytes = []byte{}
		}
	}
	ev.Dispatch = dispatched && b.hasData
	if dispatched {
		r.lastID = r.idBuffer
	}
	if r.keep {
		ev = r.handOver(ev, b)
	}
	*b = block{}
	return ev
}
