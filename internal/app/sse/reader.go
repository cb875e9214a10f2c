package sse

import (
	"errors"
	"fmt"
	"io"
)

// Default limits: generous for real servers, bounded for hostile ones.
const (
	DefaultMaxLine  = 16 << 20
	DefaultMaxEvent = 16 << 20
	DefaultMaxRaw   = 1 << 20
)

// Limits bound what a Reader holds; a zero field takes its default.
type Limits struct {
	MaxLine  int64 // bytes of one line, its line end excluded
	MaxEvent int64 // bytes of one event: its lines, comments and line ends
	// MaxRaw is how many bytes of an event Event.Raw keeps: a longer
	// event's Raw is its head and RawCut is set. It bounds what a capture
	// holds of a huge event, below MaxEvent which fails the read.
	MaxRaw int64
}

// Reader reads Events from an event stream. It is not safe for concurrent
// use.
//
// It reads through one buffer, where an event up to Limits.MaxRaw stays
// whole until it is returned: Raw, and DataBytes when the event has one
// data line, are slices of that buffer, not copies. Memory is bounded by
// the limits: the buffer holds at most about max(MaxRaw, MaxLine) and a
// read, with room to double; data joined from several lines or from an
// event past MaxRaw is at most MaxEvent; the head of an event past MaxRaw is
// MaxRaw.
type Reader struct {
	src io.Reader
	lim Limits

	buf    []byte // buf[:end] is the stream from offset base
	base   int64
	pos    int   // the next byte to parse
	end    int   // the bytes read into buf
	srcErr error // what the source returned; met when buf is parsed
	empty  int   // reads in a row that returned nothing
	step   int   // what the next read asks for, firstRead to readSize

	bomDone   bool  // the byte order mark was looked for
	pendingLF bool  // the last line ended in CR: an LF next is part of it
	err       error // sticky: what Next returns from now on
	lf, cr    finder

	blk  block  // the event being read
	data []byte // data values joined, when they are not one slice of buf
	head []byte // the first MaxRaw bytes of an event that left buf

	skipped func([]byte) // told the bytes that belong to no event (OnSkip)

	keep bool // events are handed over to be kept (KeepEvents)
	lent int  // buf[:lent] holds bytes of events handed over: never written again

	typ      string // the Type of the last event that had one, reused
	idBuffer string // the standard's last event ID buffer
	lastID   string // the standard's last event ID string
}

// NewReader returns a Reader of the event stream r with the given limits.
func NewReader(r io.Reader, lim Limits) *Reader {
	if lim.MaxLine <= 0 {
		lim.MaxLine = DefaultMaxLine
	}
	if lim.MaxEvent <= 0 {
		lim.MaxEvent = DefaultMaxEvent
	}
	if lim.MaxRaw <= 0 {
		lim.MaxRaw = DefaultMaxRaw
	}
	return &Reader{src: r, lim: lim, step: firstRead}
}

// OnSkip sets f to be told, as they are read, the bytes the Reader passes
// over that belong to no event: a leading byte order mark, the blank lines
// between events and after the last one, the LF of a CR LF that ended an
// event. With the events' Raw they are the whole stream, in order, so a
// relay can pass it on byte for byte. The slice f gets is valid only
// during the call; f is called from Next.
func (r *Reader) OnSkip(f func([]byte)) { r.skipped = f }

// skip tells the OnSkip function about b.
func (r *Reader) skip(b []byte) {
	if r.skipped != nil && len(b) > 0 {
		r.skipped(b)
	}
}

// LastEventID is the standard's last event ID string: the ID of the last
// event that ended at a blank line (dispatched or not), what a client
// sends as Last-Event-ID to resume.
func (r *Reader) LastEventID() string { return r.lastID }

// Next returns the next event that ends at a blank line. At the end of the
// stream it returns io.EOF, or, when an event was cut, what arrived of it
// and a *CutError. A line or an event past the limits gives a *LimitError;
// another read error is returned wrapped. Errors are sticky. The Raw and
// DataBytes of the event returned before are no longer valid, unless the
// Reader was told KeepEvents.
func (r *Reader) Next() (Event, error) {
	if r.err != nil {
		return Event{}, r.err
	}
	if !r.bomDone {
		r.skipBOM()
	}
	r.release()
	for {
		if r.pos < r.end {
			skipped, err := r.startLine()
			if err != nil {
				return r.fail(err)
			}
			if skipped {
				continue // the LF of a CR LF split between reads
			}
		}
		i := r.lineEnd()
		if i < 0 {
			if err := r.checkLimits(r.end, r.end); err != nil {
				return r.fail(err)
			}
			if r.srcErr != nil {
				return r.finish()
			}
			r.fill()
			continue
		}
		term := 1
		if r.buf[i] == '\r' && i+1 < r.end && r.buf[i+1] == '\n' {
			term = 2
		}
		blank := i == r.pos
		if blank && !r.blk.open {
			r.skip(r.buf[i : i+term])
			r.endLine(i, term) // a blank line between events
			continue
		}
		counted := i + term
		if blank {
			counted = i + 1 // the LF of a blank CR LF rides along: a split read does not wait for it
		}
		if err := r.checkLimits(i, counted); err != nil {
			return r.fail(err)
		}
		from := r.pos
		r.endLine(i, term)
		if blank {
			return r.takeEvent(true), nil
		}
		r.applyLine(from, i)
	}
}

// startLine looks at the byte at pos before a line is read: an LF that
// ends the CR LF whose CR ended the last read is skipped (it reports true),
// counted in the event it ends a line of; the first byte of a line that is
// not blank opens an event.
func (r *Reader) startLine() (skipped bool, err error) {
	c := r.buf[r.pos]
	if r.pendingLF {
		r.pendingLF = false
		if c == '\n' {
			if err := r.checkLimits(r.pos, r.pos+1); err != nil {
				return false, err
			}
			if !r.blk.open {
				r.skip(r.buf[r.pos : r.pos+1])
			}
			r.pos++
			return true, nil
		}
	}
	if !r.blk.open && c != '\n' && c != '\r' {
		r.blk.open, r.blk.start = true, r.base+int64(r.pos)
	}
	return false, nil
}

// endLine moves past the line whose line end is at i, term bytes long.
// A CR that is the last byte read may be the first half of a CR LF.
func (r *Reader) endLine(i, term int) {
	r.pos = i + term
	r.pendingLF = term == 1 && r.buf[i] == '\r' && r.pos == r.end
}

// lineEnd returns the index in buf of the first CR or LF at or after pos,
// or -1. Each finder remembers how far it has looked, so that a long line
// arriving in pieces is searched once.
func (r *Reader) lineEnd() int {
	c := r.buf[:r.end]
	from := r.pos
	lf := r.lf.index(c, r.base, from, '\n')
	if lf >= 0 {
		c = c[:lf] // a CR counts only before the LF
	}
	if cr := r.cr.index(c, r.base, from, '\r'); cr >= 0 {
		return cr
	}
	return lf
}

// checkLimits checks the line from pos to lineEnd and the event being read
// up to counted (both indexes in buf) against the limits. The error is the
// limit the stream crosses first, the line's when both are crossed at one
// byte, so that it does not depend on how the stream arrives.
func (r *Reader) checkLimits(lineEnd, counted int) error {
	lineStart := int64(r.pos)
	lineOver := int64(lineEnd)-lineStart > r.lim.MaxLine
	evStart := lineStart
	if r.blk.open {
		evStart = r.blk.start - r.base
	}
	evOver := r.blk.open && int64(counted)-evStart > r.lim.MaxEvent
	switch {
	case lineOver && (!evOver || lineStart+r.lim.MaxLine <= evStart+r.lim.MaxEvent):
		return &LimitError{Limit: "line", Max: r.lim.MaxLine, Offset: r.base + lineStart}
	case evOver:
		return &LimitError{Limit: "event", Max: r.lim.MaxEvent, Offset: r.blk.start}
	}
	return nil
}

// fail makes err sticky and returns it.
func (r *Reader) fail(err error) (Event, error) {
	r.err = err
	return Event{}, err
}

// finish ends the stream at the source's error: a clean io.EOF, a cut
// event (what arrived of it, its last line even without a line end), or
// the error wrapped.
func (r *Reader) finish() (Event, error) {
	if r.pos < r.end {
		from := r.pos
		r.pos = r.end
		r.applyLine(from, r.end)
	}
	if r.blk.open {
		ev := r.takeEvent(false)
		r.err = &CutError{Offset: ev.Offset, Length: ev.Length, Cause: r.srcErr}
		return ev, r.err
	}
	if errors.Is(r.srcErr, io.EOF) {
		return r.fail(io.EOF)
	}
	return r.fail(fmt.Errorf("sse: reading at offset %d: %w", r.base+int64(r.end), r.srcErr))
}
