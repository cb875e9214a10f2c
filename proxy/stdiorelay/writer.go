package stdiorelay

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync/atomic"
)

// writeBuffer holds the lines a relay writes while more are already read
// and waiting: they go out together, in one write.
const writeBuffer = 64 << 10

// errGone says a side can no longer be written to: it closed, or the
// relay ended it.
var errGone = errors.New("closed")

// lineWriter writes whole lines to one side, one writer at a time, so
// that lines from the relay, from a fault and from a viewer never
// interleave. Its lock is a channel, so a writer that waits can give up.
type lineWriter struct {
	w    io.Writer
	bw   *bufio.Writer // lines held back while more follow at once; the slot guards it
	slot chan struct{}
	dead atomic.Bool // a write failed or the side was closed: the rest is dropped
	name string      // "the server's stdin", in errors
}

func newLineWriter(w io.Writer, name string) *lineWriter {
	return &lineWriter{w: w, bw: bufio.NewWriterSize(w, writeBuffer), slot: make(chan struct{}, 1), name: name}
}

// lock takes the writer, or gives up when ctx ends.
func (lw *lineWriter) lock(ctx context.Context) error {
	select {
	case lw.slot <- struct{}{}:
		return nil // free: taken even when ctx has ended
	default:
	}
	select {
	case lw.slot <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (lw *lineWriter) unlock() { <-lw.slot }

// writeLocked writes b, after what was held back; the writer is held.
// With hold, b may be held back too, until the next write or flush. After
// a failed write every later one fails at once: the side is gone.
func (lw *lineWriter) writeLocked(b []byte, hold bool) error {
	if lw.dead.Load() {
		return &sideError{side: lw.name, err: errGone}
	}
	var err error
	switch {
	case hold:
		_, err = lw.bw.Write(b)
	case lw.bw.Buffered() == 0:
		_, err = lw.w.Write(b)
	default:
		if _, err = lw.bw.Write(b); err == nil {
			err = lw.bw.Flush()
		}
	}
	if err != nil {
		lw.dead.Store(true)
		return &sideError{side: lw.name, err: err}
	}
	return nil
}

// flush writes what was held back, if anything.
func (lw *lineWriter) flush(ctx context.Context) error {
	if err := lw.lock(ctx); err != nil {
		return err
	}
	defer lw.unlock()
	if lw.bw.Buffered() == 0 || lw.dead.Load() {
		return nil
	}
	if err := lw.bw.Flush(); err != nil {
		lw.dead.Store(true)
		return &sideError{side: lw.name, err: err}
	}
	return nil
}

// write writes one line whole, waiting its turn; with hold, it may be
// held back until the next write or flush.
func (lw *lineWriter) write(ctx context.Context, b []byte, hold bool) error {
	if err := lw.lock(ctx); err != nil {
		return err
	}
	defer lw.unlock()
	return lw.writeLocked(b, hold)
}

// writeBounded writes one line whole, but returns when ctx ends even if
// the write goes on: the line still goes out whole, after ctx, so framing
// stays intact (a side that stopped reading holds it).
func (lw *lineWriter) writeBounded(ctx context.Context, b []byte) error {
	if err := lw.lock(ctx); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		defer lw.unlock()
		done <- lw.writeLocked(b, false)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return &sideError{side: lw.name, err: errors.New("not reading; the line goes when it reads again")}
	}
}

// close marks the side gone; with closeIt, it closes the underlying
// writer, which unblocks a write in progress when it is a pipe.
func (lw *lineWriter) close(closeIt bool) {
	lw.dead.Store(true)
	if c, ok := lw.w.(io.Closer); ok && closeIt {
		_ = c.Close()
	}
}

// sideError is a failed write to one side.
type sideError struct {
	side string
	err  error
}

func (e *sideError) Error() string { return "writing to " + e.side + ": " + e.err.Error() }
func (e *sideError) Unwrap() error { return e.err }
