package recordings

import "github.com/mcpscope/mcpscope/capture"

// queued is one record waiting for the file writer: a frame, as it was
// appended, or any other value to encode as one line (v).
type queued struct {
	f    capture.Frame // a copy of the frame: a Store after the Writer may change the original
	keep int           // how many of the frame's bytes to write
	seq  uint64        // with Options.Number: the frame's number
	v    any           // a record that is not a frame, built already
}

// Bounds of the queue: past wakeFrames records or wakeBytes bytes of
// frames, Append wakes the file writer even for frames that could wait
// for FlushEvery; past maxQueued records or maxPending bytes it encodes
// the queue itself (the file writer being slower than the session), so
// the queue, what a crash can lose, never holds more than that.
const (
	wakeFrames = 1024
	wakeBytes  = 256 << 10
	maxQueued  = 8192
)

// queueState says what Append does once it queued a frame.
type queueState uint8

const (
	queueWait queueState = iota // nothing: the frame can wait
	queueWake                   // wake the file writer
	queueFull                   // encode and write the queue now
)

// queueLocked adds q to the queue and says what is due.
func (w *Writer) queueLocked(q queued) queueState {
	w.queue = append(w.queue, q)
	w.queued += len(q.f.Raw)
	switch {
	case len(w.queue) >= maxQueued || w.queued >= maxPending:
		return queueFull
	case len(w.queue) >= wakeFrames || w.queued >= wakeBytes:
		return queueWake
	}
	return queueWait
}

// takeQueue hands the queue to the file writer, under w.io, leaving the
// spare one in its place; it returns the error that stopped the recording.
func (w *Writer) takeQueue() ([]queued, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	batch := w.queue
	w.queue, w.spareQ, w.queued = w.spareQ[:0], nil, 0
	return batch, w.err
}

// encodeBatch encodes the records of batch into pend, in order, under w.io,
// and lets go of what they referred to.
func (w *Writer) encodeBatch(batch []queued) {
	for i := range batch {
		q := &batch[i]
		if q.v != nil {
			w.encode(q.v)
			continue
		}
		l := frameLine(&q.f, q.keep, w.red, &w.built)
		if q.seq != 0 {
			l.Seq = q.seq
		}
		w.encode(l)
		w.built.forget()
	}
}

// giveBack returns an encoded batch's memory as the spare queue, unless
// records that are not frames grew it well past the bound (append gives a
// full queue some room beyond maxQueued).
func (w *Writer) giveBack(batch []queued) {
	clear(batch)
	w.mu.Lock()
	defer w.mu.Unlock()
	if cap(batch) <= 2*maxQueued {
		w.spareQ = batch[:0]
	}
}
