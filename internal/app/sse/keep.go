package sse

// Sizes of a Reader told KeepEvents.
const (
	// lendMin is the smallest event handed over in the buffer it was read
	// into; a smaller one is copied, which costs less than the buffers a
	// stream of them would take.
	lendMin = 16 << 10
	// lendShare bounds the buffer a handed-over event keeps alive: at most
	// lendShare times the event's own bytes; a smaller event is copied.
	lendShare = 8
	// lendBuf is the least a Reader reads into once it has handed over a
	// buffer, so that the start of the next event, copied out of the old
	// one, is a small share of what it reads.
	lendBuf = 256 << 10
)

// KeepEvents makes every event the Reader returns from now on its caller's
// to keep: its Raw and DataBytes are never written again by the Reader and
// stay valid after the next call to Next, with no need of Event.Clone.
//
// An event of at least 16 KiB that is at least an eighth of the Reader's
// buffer is handed over in the buffer it was read into, with no copy: the
// Reader then reads on into a new buffer, and the old one lives as long as
// the events handed over in it (at most eight times their bytes). A smaller
// event is copied, as Clone would. Memory the Reader itself holds stays
// bounded by Limits, as without KeepEvents.
func (r *Reader) KeepEvents() { r.keep = true }

// handOver makes ev, just taken from the block b, the caller's to keep:
// small, it is copied; otherwise the bytes it holds are let go by the
// Reader (its head, its joined data) and the part of buf it lies in is
// never written again.
func (r *Reader) handOver(ev Event, b *block) Event {
	inBuf := 0 // the bytes of the event buf holds
	if !b.spilled {
		inBuf = r.pos - int(b.start-r.base)
	}
	if !b.spilled && (inBuf < lendMin || inBuf*lendShare < len(r.buf)) {
		return ev.Clone()
	}
	if b.spilled {
		r.head = nil
	}
	if b.hasData && !b.inRef {
		r.data = nil
	}
	if inBuf > 0 {
		r.lent = r.pos
	}
	return ev
}
