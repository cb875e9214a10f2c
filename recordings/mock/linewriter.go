package mock

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sync"
)

// lineWriter writes the mock's answers on standard output from a
// goroutine of its own, so that the serving loop never blocks on a reader
// that stopped reading: it waits on its context instead.
type lineWriter struct {
	chunks chan []byte
	once   sync.Once
	done   chan struct{} // closed when the goroutine ends
	err    error         // why it ended early; read after done
}

// newLineWriter starts the goroutine that writes to out.
func newLineWriter(out io.Writer) *lineWriter {
	w := &lineWriter{chunks: make(chan []byte, 64), done: make(chan struct{})}
	go w.run(bufio.NewWriter(out))
	return w
}

// run writes the chunks, flushing whenever none waits.
func (w *lineWriter) run(bw *bufio.Writer) {
	defer close(w.done)
	for c := range w.chunks {
		if _, err := bw.Write(c); err != nil {
			w.err = fmt.Errorf("writing standard output: %w", err)
			return
		}
		if len(w.chunks) == 0 {
			if err := bw.Flush(); err != nil {
				w.err = fmt.Errorf("writing standard output: %w", err)
				return
			}
		}
	}
}

// send hands one chunk to the goroutine; it fails when ctx ends first or
// the goroutine stopped on an error.
func (w *lineWriter) send(ctx context.Context, chunk []byte) error {
	select {
	case w.chunks <- chunk:
		return nil
	case <-w.done:
		return w.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// answers writes conn's answers to msg as they are made: each on a line,
// the answers to a batch as one JSON array on one line.
func (w *lineWriter) answers(ctx context.Context, conn *Conn, msg []byte) error {
	opened := false
	err := conn.Each(msg, func(b []byte, inBatch bool) error {
		switch {
		case !inBatch:
			return w.send(ctx, append(b[:len(b):len(b)], '\n'))
		case opened:
			return w.send(ctx, append([]byte{','}, b...))
		}
		opened = true
		return w.send(ctx, append([]byte{'['}, b...))
	})
	if err == nil && opened {
		err = w.send(ctx, []byte("]\n"))
	}
	return err
}

// close writes what waits and ends the goroutine; it returns early when
// ctx ends.
func (w *lineWriter) close(ctx context.Context) error {
	w.abandon()
	select {
	case <-w.done:
		return w.err
	case <-ctx.Done():
		return nil
	}
}

// abandon ends the goroutine once what waits is written, whether or not
// anyone waits for it.
func (w *lineWriter) abandon() { w.once.Do(func() { close(w.chunks) }) }
