package httprelay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// keptStream reads through src and keeps the bytes read from the offset
// the relay has consumed to: what an event past maxBody has of its bytes
// when the event reader gives up on it. It holds at most what the event
// reader holds ahead of the events it returned.
type keptStream struct {
	src  io.Reader
	kept []byte
	base int64 // the stream offset of kept[0]
}

// Read reads from src, keeping what it read.
func (k *keptStream) Read(p []byte) (int, error) {
	n, err := k.src.Read(p)
	k.kept = append(k.kept, p[:n]...)
	return n, err
}

// consumed lets go of the bytes before the stream offset off.
func (k *keptStream) consumed(off int64) {
	drop := min(off-k.base, int64(len(k.kept)))
	if drop <= 0 {
		return
	}
	k.kept, k.base = k.kept[drop:], k.base+drop
	if len(k.kept) == 0 {
		k.kept = nil
	}
}

// blankScan finds the blank line that ends an event, across the pieces
// of a stream: a line end (CR, LF or CR LF) right after another.
type blankScan struct {
	lineStart bool // the last byte ended a line
	afterCR   bool // the last byte was a CR: an LF now completes its line end
}

// scan returns the index in b just past the blank line that ends the
// event, or -1 when b holds no end.
func (s *blankScan) scan(b []byte) int {
	for i, c := range b {
		if c == '\n' && s.afterCR {
			s.afterCR = false
			continue
		}
		s.afterCR = c == '\r'
		if c != '\r' && c != '\n' {
			s.lineStart = false
			continue
		}
		if s.lineStart {
			if c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				return i + 2
			}
			return i + 1
		}
		s.lineStart = true
	}
	return -1
}

// carryLongEvent carries on to the host an event past maxBody whose
// bytes so far ks keeps from its start: those at once, the rest as it is
// read up to the blank line that ends it. The event is captured by its
// head and size, not held: no pause or fault applies to it. It returns
// what follows the event (nil at the stream's end).
func (a *answer) carryLongEvent(ctx context.Context, ks *keptStream) (io.Reader, error) {
	var sc blankScan
	var head []byte
	var size int64
	write := func(b []byte) error {
		head = append(head, b[:min(len(b), keptHead-len(head))]...)
		size += int64(len(b))
		return a.host.raw(ctx, b)
	}
	captured := func(broke error) {
		var err error = &BodyTooLongError{Size: size, Max: maxBody, Kept: len(head)}
		if broke != nil {
			err = fmt.Errorf("%w; the stream ended inside it: %v", err, broke)
		}
		a.tap.event(a.conn, head, size, err)
	}
	pending, src := ks.kept, ks.src
	ks.kept = nil
	buf := make([]byte, 32<<10)
	for {
		if i := sc.scan(pending); i >= 0 {
			werr := write(pending[:i])
			captured(nil)
			if werr != nil {
				return nil, werr
			}
			return io.MultiReader(bytes.NewReader(bytes.Clone(pending[i:])), src), nil
		}
		if err := write(pending); err != nil {
			captured(nil)
			return nil, err
		}
		n, err := src.Read(buf)
		pending = buf[:n]
		if err != nil && n == 0 {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			captured(err)
			return nil, fmt.Errorf("%w: %v", errBroken, err)
		}
	}
}
