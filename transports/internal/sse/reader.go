package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Default limits: generous for real servers, bounded for hostile ones.
const (
	DefaultMaxLine  = 16 << 20
	DefaultMaxEvent = 16 << 20
)

// bufferSize is the bufio buffer a Reader reads through.
const bufferSize = 64 << 10

// Limits bound what a Reader holds; a zero field takes its default.
type Limits struct {
	MaxLine  int64 // bytes of one line, its line end excluded
	MaxEvent int64 // bytes of one event: its lines, comments and line ends
}

// Reader reads Events from an event stream. It is not safe for concurrent
// use.
type Reader struct {
	br  *bufio.Reader
	lim Limits

	off       int64 // stream offset of the next byte not consumed
	bomDone   bool  // the byte order mark was looked for
	pendingLF bool  // the last line ended in CR: an LF next is part of it
	readErr   error // a read error met while looking for the byte order mark
	err       error // sticky: what Next returns from now on
	lf, cr    finder

	line  lineState
	block blockState

	idBuffer string // the standard's last event ID buffer
	lastID   string // the standard's last event ID string
	dataHint int    // the data size of the last event, to size the next
}

// blockState is the event being read.
type blockState struct {
	open    bool // a line of it arrived
	offset  int64
	ev      Event
	data    strings.Builder
	hasData bool
}

// NewReader returns a Reader of the event stream r with the given limits.
func NewReader(r io.Reader, lim Limits) *Reader {
	if lim.MaxLine <= 0 {
		lim.MaxLine = DefaultMaxLine
	}
	if lim.MaxEvent <= 0 {
		lim.MaxEvent = DefaultMaxEvent
	}
	return &Reader{br: bufio.NewReaderSize(r, bufferSize), lim: lim}
}

// LastEventID is the standard's last event ID string: the ID of the last
// event that ended at a blank line (dispatched or not), what a client
// sends as Last-Event-ID to resume.
func (r *Reader) LastEventID() string { return r.lastID }

// Next returns the next event that ends at a blank line. At the end of the
// stream it returns io.EOF, or, when an event was cut, what arrived of it
// and a *CutError. A line or an event past the limits gives a *LimitError;
// another read error is returned wrapped. Errors are sticky.
func (r *Reader) Next() (Event, error) {
	if r.err != nil {
		return Event{}, r.err
	}
	if !r.bomDone {
		r.skipBOM()
	}
	for {
		if r.br.Buffered() == 0 {
			err := r.readErr
			if err == nil {
				_, err = r.br.Peek(1)
			}
			if err != nil {
				return r.end(err)
			}
		}
		c, _ := r.br.Peek(r.br.Buffered())
		n, ev, done, err := r.scan(c)
		_, _ = r.br.Discard(n) // n bytes are buffered: Discard cannot fail
		if err != nil {
			r.err = err
			return Event{}, err
		}
		if done {
			return ev, nil
		}
	}
}

// skipBOM skips one leading UTF-8 byte order mark.
func (r *Reader) skipBOM() {
	r.bomDone = true
	b, err := r.br.Peek(3)
	if bytes.Equal(b, []byte("\xEF\xBB\xBF")) {
		_, _ = r.br.Discard(3)
		r.off = 3
		return
	}
	r.readErr = err
}

// end ends the stream on a read error: a clean io.EOF, a cut event, or the
// error wrapped.
func (r *Reader) end(cause error) (Event, error) {
	if r.block.open {
		if r.line.length > 0 {
			r.endField()
		}
		ev := r.takeEvent(false)
		r.err = &CutError{Offset: ev.Offset, Length: ev.Length, Cause: cause}
		return ev, r.err
	}
	if errors.Is(cause, io.EOF) {
		r.err = io.EOF
	} else {
		r.err = fmt.Errorf("sse: reading at offset %d: %w", r.off, cause)
	}
	return Event{}, r.err
}

// scan consumes c, the bytes buffered from stream offset r.off, until an
// event ends. It returns how many bytes it consumed.
func (r *Reader) scan(c []byte) (n int, ev Event, done bool, err error) {
	for n < len(c) {
		if r.pendingLF {
			r.pendingLF = false
			if c[n] == '\n' {
				n++
				r.off++
				continue
			}
		}
		end := r.lineEnd(c, n)
		seg := c[n:]
		if end >= 0 {
			seg = c[n:end]
		}
		if len(seg) > 0 {
			if err := r.content(seg); err != nil {
				return n, Event{}, false, err
			}
			n += len(seg)
		}
		if end < 0 {
			break
		}
		term := 1
		if c[end] == '\r' {
			switch {
			case end+1 == len(c):
				r.pendingLF = true
			case c[end+1] == '\n':
				term = 2
			}
		}
		if r.block.open && r.off+int64(term)-r.block.offset > r.lim.MaxEvent {
			return n, Event{}, false, &LimitError{Limit: "event", Max: r.lim.MaxEvent, Offset: r.block.offset}
		}
		r.off += int64(term)
		n += term
		if r.line.length == 0 {
			if r.block.open {
				return n, r.takeEvent(true), true, nil
			}
			continue // a blank line between events
		}
		r.endField()
	}
	return n, Event{}, false, nil
}

// lineEnd returns the index in c of the first CR or LF at or after i, or -1.
func (r *Reader) lineEnd(c []byte, i int) int {
	lf := r.lf.index(c, r.off-int64(i), i, '\n')
	cr := r.cr.index(c, r.off-int64(i), i, '\r')
	if lf < 0 || (cr >= 0 && cr < lf) {
		return cr
	}
	return lf
}

// content takes seg, bytes of the current line, checking the limits first.
func (r *Reader) content(seg []byte) error {
	if r.line.length == 0 {
		r.line.start(r.off)
	}
	if !r.block.open {
		r.block.open, r.block.offset = true, r.off
	}
	if r.line.length+int64(len(seg)) > r.lim.MaxLine {
		return &LimitError{Limit: "line", Max: r.lim.MaxLine, Offset: r.line.offset}
	}
	if r.off+int64(len(seg))-r.block.offset > r.lim.MaxEvent {
		return &LimitError{Limit: "event", Max: r.lim.MaxEvent, Offset: r.block.offset}
	}
	r.line.length += int64(len(seg))
	r.off += int64(len(seg))
	if v := r.line.take(seg); len(v) > 0 && r.line.kind == fieldData {
		if r.block.data.Cap() == 0 && r.dataHint > 0 {
			r.block.data.Grow(r.dataHint)
		}
		r.block.data.Write(v)
	}
	return nil
}

// endField applies the line that just ended to the event being read.
func (r *Reader) endField() {
	value := r.line.finish()
	b := &r.block
	switch r.line.kind {
	case fieldData:
		b.hasData = true
		b.data.WriteByte('\n')
	case fieldEvent:
		b.ev.Type = string(value)
	case fieldID:
		if bytes.IndexByte(value, 0) < 0 {
			r.idBuffer = string(value)
		}
	case fieldRetry:
		if ms, ok := parseRetry(value); ok {
			b.ev.Retry, b.ev.HasRetry = ms, true
		}
	case fieldComment:
		b.ev.Comments = append(b.ev.Comments, string(value))
	}
}

// takeEvent returns the event read so far and starts the next one.
// dispatched is true at a blank line: the last event ID string is set.
func (r *Reader) takeEvent(dispatched bool) Event {
	b := &r.block
	ev := b.ev
	ev.ID = r.idBuffer
	ev.Offset, ev.Length = b.offset, r.off-b.offset
	if b.hasData || b.data.Len() > 0 {
		data := b.data.String()
		ev.Data = strings.TrimSuffix(data, "\n")
		r.dataHint = min(len(data), int(min(r.lim.MaxEvent, 1<<30)))
	}
	ev.Dispatch = dispatched && b.hasData
	if dispatched {
		r.lastID = r.idBuffer
	}
	*b = blockState{}
	return ev
}
