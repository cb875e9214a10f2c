package conn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/client"
)

// DeadlineWriter is a byte stream a write can be cut short on: a pipe or a
// QUIC stream.
type DeadlineWriter interface {
	io.Writer
	SetWriteDeadline(time.Time) error
}

// Writer writes whole frames (LF-terminated lines, length-prefixed frames)
// one after the other. A write cut short by its context keeps the rest of
// the frame, which goes out before the next one, so that framing stays
// intact. A frame whose deadline passes before it is whole means that the
// peer stopped reading: the rest could never be relied on to go out, so
// every later Write fails at once with a *StalledError instead of waiting
// behind it. It is not safe for concurrent use: the caller holds its write
// slot; only Stalled may be called at any time.
type Writer struct {
	// Unit names what is written, in errors: "line", "frame".
	Unit string
	// Next names what the rest of a cut frame goes out before, in errors:
	// "message", "frame".
	Next string
	// Dest names where it is written, in errors: "the server's stdin".
	Dest string

	pending   []byte                       // the rest of a frame cut short by a cancelled write
	direct    *direct                      // writes to directFor without waiting, made once
	directFor DeadlineWriter               // the destination direct writes to
	size      int                          // the size of the frame pending belongs to
	stalled   atomic.Pointer[StalledError] // set once a frame could not be finished in time
}

// StalledError says a frame was cut short by its deadline: the peer took
// only part of it in the time the sender could wait, so it stopped
// reading, and since the rest would have to go out before anything else,
// nothing more can be written. It wraps client.ErrStoppedReading.
type StalledError struct {
	Unit string // "line", "frame"
	Dest string // "the server's stdin"
	Sent int    // bytes of the frame that went out
	Size int    // bytes of the frame
}

func (e *StalledError) Error() string {
	return fmt.Sprintf("%s: only %d of the %d bytes of a %s went into %s in time; nothing more can be sent, since the rest would have to go first",
		client.ErrStoppedReading, e.Sent, e.Size, e.Unit, e.Dest)
}

// Unwrap returns client.ErrStoppedReading.
func (e *StalledError) Unwrap() error { return client.ErrStoppedReading }

// Write writes what is left of an interrupted frame to dst, then frame,
// giving up when ctx ends. A frame cut short by a cancelled ctx keeps its
// rest for the next Write; one cut short by ctx's deadline stalls the
// Writer (see StalledError). After a stall it fails at once.
func (w *Writer) Write(ctx context.Context, dst DeadlineWriter, frame []byte) error {
	if stall := w.stalled.Load(); stall != nil {
		return fmt.Errorf("not sent: %w", stall)
	}
	if len(w.pending) > 0 {
		n, err := WriteUntil(ctx, dst, w.pending)
		w.pending = w.pending[n:]
		if err != nil {
			if stall := w.stall(ctx, w.size-len(w.pending), w.size); stall != nil {
				return fmt.Errorf("not sent: %w (%w)", stall, err)
			}
			return fmt.Errorf("not sent: the rest of an earlier %s could not be written: %w", w.Unit, err)
		}
	}
	var d *direct
	if f, ok := dst.(*os.File); ok { // a pipe: written directly when it has room
		if w.directFor != f {
			w.direct, w.directFor = newDirect(f), f
		}
		d = w.direct
	}
	n, err := writeUntil(ctx, dst, frame, d)
	switch {
	case err == nil:
		return nil
	case n > 0 && ctx.Err() != nil:
		w.pending, w.size = frame[n:], len(frame)
		if stall := w.stall(ctx, n, len(frame)); stall != nil {
			return fmt.Errorf("%w (%w)", stall, err)
		}
		return fmt.Errorf("sending was cancelled after %d of %d bytes; the rest goes out before the next %s: %w", n, len(frame), w.Next, err)
	}
	return fmt.Errorf("writing to %s: %w", w.Dest, err)
}

// stall marks the Writer stalled when ctx's deadline cut a frame of size
// bytes after sent, and returns the stall; nil when ctx was cancelled
// instead (the rest then goes out first next time).
func (w *Writer) stall(ctx context.Context, sent, size int) *StalledError {
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil
	}
	stall := &StalledError{Unit: w.Unit, Dest: w.Dest, Sent: sent, Size: size}
	w.stalled.Store(stall)
	w.pending = nil // never written: the frame cannot be finished
	return stall
}

// Stalled returns the stall that ended writing, or nil. It is safe to call
// while a Write runs.
func (w *Writer) Stalled() *StalledError { return w.stalled.Load() }

// WriteUntil writes b to dst, giving up when ctx ends: it then sets a write
// deadline in the past (a pipe that cannot take deadlines just blocks) and
// returns ctx's error with the count written.
//
// A write the stream takes whole at once, as a pipe with room does, is
// made without watching ctx: only one that would wait is watched.
func WriteUntil(ctx context.Context, dst DeadlineWriter, b []byte) (int, error) {
	return writeUntil(ctx, dst, b, newDirect(dst))
}

// writeUntil is WriteUntil with d, the direct writer of dst (nil when
// there is none).
func writeUntil(ctx context.Context, dst DeadlineWriter, b []byte, d *direct) (int, error) {
	if ctx.Err() == nil {
		if n := d.write(b); n > 0 {
			if n == len(b) {
				return n, nil
			}
			m, err := watchedWrite(ctx, dst, b[n:])
			return n + m, err
		}
	}
	return watchedWrite(ctx, dst, b)
}

// watchedWrite writes b to dst, giving up when ctx ends.
func watchedWrite(ctx context.Context, dst DeadlineWriter, b []byte) (int, error) {
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = dst.SetWriteDeadline(time.Unix(1, 0))
		close(fired)
	})
	n, err := dst.Write(b)
	if !stop() {
		<-fired
		_ = dst.SetWriteDeadline(time.Time{})
	}
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
		err = ctx.Err()
	}
	return n, err
}
