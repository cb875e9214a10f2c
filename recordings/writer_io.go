package recordings

import (
	"bytes"
	"fmt"
	"time"
)

// maxPending bounds the bytes of the frames a Writer holds for the file:
// past it, Append waits for the file, so a slow disk slows the session
// rather than filling memory.
const maxPending = 8 << 20

// Hold says the caller writes the control messages it appends to the
// file itself: until the matching Release, a control message does not
// wake the file writer, and Release (or Flush) writes whatever is pending
// in the caller, so that a message, or a burst of them, reaches the file
// in one write and without waking another goroutine. A relay holds while
// it carries a message on and releases once it is delivered. Whatever
// happens, a held message reaches the file within FlushEvery.
func (w *Writer) Hold() { w.holds.Add(1) }

// Release ends a Hold: the control messages appended while held go to the
// file now (see Flush), whether or not other Holds are still in force.
func (w *Writer) Release() {
	w.holds.Add(-1)
	if w.owed.Swap(false) {
		w.Flush()
	}
}

// Flush writes the lines pending to the file in the caller, or, when the
// file writer is writing already, wakes it to write them next.
func (w *Writer) Flush() {
	if !w.io.TryLock() {
		w.nudge()
		return
	}
	err, stopped := w.drainIO()
	w.io.Unlock()
	if stopped {
		w.tell(err)
	}
}

// wakeFor wakes the file writer for a control message, or, while held,
// leaves it to the last Release.
func (w *Writer) wakeFor() {
	if w.holds.Load() > 0 {
		w.owed.Store(true)
		if w.holds.Load() > 0 { // else a Release in between may have missed it
			return
		}
		w.owed.Store(false)
	}
	w.nudge()
}

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
	t := time.NewTicker(w.every)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			close(w.done)
			return
		case <-w.wake:
		case <-t.C:
			w.mu.Lock()
			if !w.closed {
				w.caps.report(w, false)
			}
			w.mu.Unlock()
		}
		if err, stopped := w.drainLocked(); stopped {
			// Nothing more reaches the file: the flusher is done before
			// Stopped is told, so a Stopped that calls Close returns.
			close(w.done)
			w.tell(err)
			return
		}
	}
}

// drain writes every whole line in pend to the file, outside the lock
// that Append takes, so that capture never waits for the disk (unless
// pend is full). Lines reach the file in the order they were encoded.
func (w *Writer) drain() error {
	err, stopped := w.drainLocked()
	if stopped {
		w.tell(err)
	}
	return err
}

// tell tells Stopped err outside the locks: a Stopped that closes the
// Writer, or takes its time, neither deadlocks nor stalls Append.
func (w *Writer) tell(err error) {
	if w.stopped != nil {
		w.stopped(err)
	}
}

// drainLocked is drain under w.io; stopped says this write is the one
// that failed (drain writes nothing after an error, so it says so once).
func (w *Writer) drainLocked() (err error, stopped bool) {
	w.io.Lock()
	defer w.io.Unlock()
	return w.drainIO()
}

// drainIO is drainLocked with w.io held by the caller: it encodes the
// queue and hands its lines to the file in one write.
func (w *Writer) drainIO() (err error, stopped bool) {
	batch, err := w.takeQueue()
	if err == nil {
		w.encodeBatch(batch)
	}
	w.giveBack(batch)
	if w.pend.Len() > 0 && err == nil {
		_, werr := w.w.Write(w.pend.Bytes())
		w.mu.Lock()
		if werr != nil {
			w.fail(werr)
			err, stopped = w.err, true
		} else {
			w.written = true
		}
		w.mu.Unlock()
	}
	w.pend.Reset()
	if w.pend.Cap() > 2*maxPending {
		w.pend = bytes.Buffer{} // let an outsized buffer go
	}
	return err, stopped
}

// fail records the first write error: the recording stops there.
func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = fmt.Errorf("%w: %w", ErrStopped, err)
	}
}
