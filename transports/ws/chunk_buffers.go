package ws

import "sync/atomic"

// spareBuffers is how many given-back chunk buffers a transport keeps.
const spareBuffers = 8

// chunkBuffers are the buffers of binary chunks the sink kept nothing of
// (capture.ReleasesUnheld: past the head of a stream the capture keeps),
// given back by the taker of their events (StreamEvent.Release), for the
// reader to read later chunks into: a long download then costs no fresh
// memory, and no garbage, per chunk.
type chunkBuffers struct {
	free chan []byte
}

// newChunkBuffers returns an empty set of spares.
func newChunkBuffers() *chunkBuffers {
	return &chunkBuffers{free: make(chan []byte, spareBuffers)}
}

// get returns a spare buffer of at least size bytes of room, empty, or
// nil when there is none. A spare too small is dropped.
func (p *chunkBuffers) get(size int) []byte {
	for {
		select {
		case b := <-p.free:
			if cap(b) >= size {
				return b[:0]
			}
		default:
			return nil
		}
	}
}

// put keeps b as a spare, unless there are enough.
func (p *chunkBuffers) put(b []byte) {
	select {
	case p.free <- b:
	default:
	}
}

// release gives a chunk's buffer back to its spares, once.
type release struct {
	buf  []byte
	to   *chunkBuffers
	done atomic.Bool
}

// Release says the taker of ev is done with ev.Data, so that the buffer
// under it may carry a later chunk: ev.Data (and any copy of ev's) must not
// be used after. It is for the chunks the capture keeps nothing of; on
// other events it does nothing, as it does called again. Not calling it is
// fine: the buffer is then left to the garbage collector.
func (ev StreamEvent) Release() {
	if r := ev.release; r != nil && r.done.CompareAndSwap(false, true) {
		r.to.put(r.buf)
	}
}
