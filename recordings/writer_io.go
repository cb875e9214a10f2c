package recordings

import (
	"fmt"
	"time"
)

// maxPending bounds the encoded lines a Writer holds for the file: past
// it, Append waits for the file, so a slow disk slows the session rather
// than filling memory.
const maxPending = 8 << 20

// nudge wakes the file writer for a control message.
func (w *Writer) nudge() {
	select {
	case w.wake <- struct{}{}:
	default: // already awake: it takes this line too
	}
}

// flusher hands pend to the file when a control message wakes it and
// every FlushEvery, writing the totals of capped streams on each tick,
// until Close.
func (w *Writer) flusher() {
	defer close(w.done)
	t := time.NewTicker(w.every)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-w.wake:
		case <-t.C:
			w.mu.Lock()
			if !w.closed {
				w.caps.report(w, false)
			}
			w.mu.Unlock()
		}
		_ = w.drain()
	}
}

// drain writes every whole line in pend to the file, outside the lock
// that Append takes, so that capture never waits for the disk (unless
// pend is full). Lines reach the file in the order they were encoded.
func (w *Writer) drain() error {
	w.io.Lock()
	defer w.io.Unlock()
	w.mu.Lock()
	out := w.pend
	w.pend = w.spare[:0]
	err := w.err
	w.mu.Unlock()
	if len(out) > 0 && err == nil {
		if _, werr := w.w.Write(out); werr != nil {
			w.mu.Lock()
			w.fail(werr)
			err = w.err
			w.mu.Unlock()
			if w.stopped != nil {
				w.stopped(err) // once: drain writes nothing after an error
			}
		}
	}
	w.mu.Lock()
	if cap(out) <= maxPending {
		w.spare = out[:0]
	} else {
		w.spare = nil // let an outsized buffer go
	}
	w.mu.Unlock()
	return err
}

// fail records the first write error: the recording stops there.
func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = fmt.Errorf("%w: %w", ErrStopped, err)
	}
}
