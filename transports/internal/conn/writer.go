package conn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
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
// intact. It is not safe for concurrent use: the caller holds its write
// slot.
type Writer struct {
	// Unit names what is written, in errors: "line", "frame".
	Unit string
	// Next names what the rest of a cut frame goes out before, in errors:
	// "message", "frame".
	Next string
	// Dest names where it is written, in errors: "the server's stdin".
	Dest string

	pending []byte // the rest of a frame cut short by a cancelled write
}

// Write writes what is left of an interrupted frame to dst, then frame,
// giving up when ctx ends. A frame cut short by ctx keeps its rest for the
// next Write.
func (w *Writer) Write(ctx context.Context, dst DeadlineWriter, frame []byte) error {
	if len(w.pending) > 0 {
		n, err := WriteUntil(ctx, dst, w.pending)
		w.pending = w.pending[n:]
		if err != nil {
			return fmt.Errorf("not sent: the rest of an earlier %s could not be written: %w", w.Unit, err)
		}
	}
	n, err := WriteUntil(ctx, dst, frame)
	switch {
	case err == nil:
		return nil
	case n > 0 && ctx.Err() != nil:
		w.pending = frame[n:]
		return fmt.Errorf("sending was cancelled after %d of %d bytes; the rest goes out before the next %s: %w", n, len(frame), w.Next, err)
	}
	return fmt.Errorf("writing to %s: %w", w.Dest, err)
}

// WriteUntil writes b to dst, giving up when ctx ends: it then sets a write
// deadline in the past (a pipe that cannot take deadlines just blocks) and
// returns ctx's error with the count written.
func WriteUntil(ctx context.Context, dst DeadlineWriter, b []byte) (int, error) {
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
