package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Event is one block of lines of an event stream, ended by a blank line.
//
// Raw and DataBytes are views into the Reader's buffers: they stay valid
// only until the next call to Next. Clone makes an Event that outlives it;
// a Reader told KeepEvents returns events that do.
type Event struct {
	// Type is the value of the event field; "" means the default type,
	// "message".
	Type string
	// DataBytes is the values of the data lines joined with "\n"; nil when
	// the event had no data line. Data returns it as a string.
	DataBytes []byte
	// ID is the last event ID once this event is read: set by its own id
	// field or inherited from an earlier event; "" when none or reset.
	ID string
	// Retry is the reconnection time in milliseconds the event's retry field
	// sets; it counts only when HasRetry is true (the field was all ASCII
	// digits). A value past the int64 range saturates.
	Retry    int64
	HasRetry bool
	// Comments are the comment lines of the block (": heartbeat" gives
	// "heartbeat": the text after the colon less one leading space).
	Comments []string
	// Dispatch is true when the standard dispatches this event: it had at
	// least one data line. A priming event (an id, no data), a block of
	// comments or of unknown fields has Dispatch false; its ID still counts.
	Dispatch bool
	// Offset and Length are the event's bytes in the stream, counted from
	// the stream's first byte (a byte order mark included): from the start
	// of its first line to the end of the blank line that ends it. When that
	// blank line ends in a CR whose LF has not arrived yet, Next does not
	// wait for it: that LF is then skipped and belongs to no event.
	Offset, Length int64
	// Raw is the event's exact bytes, the span Offset and Length give, for a
	// capture to keep. An event longer than Limits.MaxRaw keeps only its
	// first MaxRaw bytes here, and RawCut is true.
	Raw    []byte
	RawCut bool
	// DataInRaw says DataBytes is the piece of Raw at DataAt (the event had
	// one data line, and Raw holds it whole): a copy of Raw holds a copy of
	// the data too.
	DataInRaw bool
	DataAt    int
}

// Data returns the event's data as a string: a copy of DataBytes, valid
// for good.
func (e Event) Data() string { return string(e.DataBytes) }

// Clone returns e with Raw and DataBytes copied, so that it stays valid
// after the next call to Next. Data in Raw is copied once, with Raw.
func (e Event) Clone() Event {
	raw := bytes.Clone(e.Raw)
	if e.DataInRaw {
		end := e.DataAt + len(e.DataBytes)
		e.DataBytes = raw[e.DataAt:end:end]
	} else {
		e.DataBytes = bytes.Clone(e.DataBytes)
	}
	e.Raw = raw
	return e
}

// ErrLimit is what every *LimitError wraps.
var ErrLimit = errors.New("sse: limit exceeded")

// LimitError is a line or an event larger than the Reader's Limits.
type LimitError struct {
	Limit  string // "line" or "event"
	Max    int64  // the limit in bytes
	Offset int64  // where the line or the event starts in the stream
}

// Error names the limit and the offset.
func (e *LimitError) Error() string {
	return fmt.Sprintf("sse: the %s at offset %d exceeds the %d-byte %s limit", e.Limit, e.Offset, e.Max, e.Limit)
}

// Unwrap returns ErrLimit.
func (e *LimitError) Unwrap() error { return ErrLimit }

// CutError is an event the stream ended in before its blank line: the
// standard does not dispatch it. Offset and Length are the bytes that
// arrived of it; Cause is why the stream ended (io.EOF for a clean end).
type CutError struct {
	Offset, Length int64
	Cause          error
}

// Error says where the cut event starts and how much of it arrived.
func (e *CutError) Error() string {
	why := "the stream ended"
	if e.Cause != nil && !errors.Is(e.Cause, io.EOF) {
		why = e.Cause.Error()
	}
	return fmt.Sprintf("sse: event at offset %d cut after %d bytes: %s", e.Offset, e.Length, why)
}

// Unwrap returns io.ErrUnexpectedEOF and the cause, so errors.Is finds
// either.
func (e *CutError) Unwrap() []error {
	if e.Cause == nil || errors.Is(e.Cause, io.EOF) {
		return []error{io.ErrUnexpectedEOF}
	}
	return []error{io.ErrUnexpectedEOF, e.Cause}
}
