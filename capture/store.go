package capture

import (
	"sync"
	"sync/atomic"
	"time"
)

// Store is the bounded capture of a session: a ring of at most MaxFrames
// frames whose cost stays within MaxBytes, plus the head, tail and totals of
// every execution stream. It is a Sink. Append and every reader are safe for
// concurrent use; readers cost what they return, never the store's size.
// Frames returned by readers are shared and must not be modified.
//
// Budget: a held frame costs its bytes (Raw plus decoded message data) and
// its metadata (the Frame, its Fields, its Msg, its slots; see weight.go).
// When the held frames cost more than MaxBytes, and their bytes cost more
// than their metadata, the oldest frames lose their bytes first and keep
// their metadata: each is replaced by a copy with Raw nil, Kept 0, Size
// unchanged, Fields kept and a light Msg (id, method, error code and
// message; a result reads "null"). Otherwise the oldest frames are evicted,
// as they are past the MaxFrames count; the newest frame is never evicted.
//
// Sequence numbers are contiguous over the frames the store holds: Seq s is
// held while Stats().FirstSeq <= s <= Stats().LastSeq. A stream chunk that
// does not carry the stream's head is counted in its stream and not held: it
// gets no Seq (Append returns 0), so a 10 GB download costs one stream
// record, not 160k frames.
type Store struct {
	cfg Config

	mu      sync.Mutex
	ring    []*Frame // grows to cfg.MaxFrames; Seq s lives at (s-1) % MaxFrames
	last    uint64   // Seq of the newest held frame; 0 when none ever
	first   uint64   // Seq of the oldest held frame
	rawFrom uint64   // frames below this Seq hold no bytes (dropped for the budget)
	streams map[StreamKey]*streamRecord
	tick    uint64   // activity clock for streams
	sse     sseTable // the SSE streams of an HTTP session (sse.go)

	held                  cost // what the held frames cost (weight.go)
	totalFrames           uint64
	totalBytes            int64
	evicted, stripped     uint64
	truncated, aggregated uint64
	forgotten             uint64

	subMu sync.Mutex
	subs  atomic.Pointer[[]chan struct{}]
}

// NewStore returns an empty store with the given bounds; zero fields of cfg
// take their defaults.
func NewStore(cfg Config) *Store {
	cfg = cfg.withDefaults()
	return &Store{cfg: cfg, first: 1, rawFrom: 1, streams: make(map[StreamKey]*streamRecord), sse: sseTable{max: cfg.MaxSSEStreams}}
}

// Config returns the bounds in force, defaults filled in.
func (s *Store) Config() Config { return s.cfg }

// Append captures f and returns its Seq, or 0 when f is not held (a stream
// chunk past its stream's head, or nil). It sets f.Seq, f.Kept and
// f.Size (at least len(Raw)), sets a zero f.Time to now, and caps a frame
// heavier than Config.FrameHead: Raw becomes a copy of its first FrameHead
// bytes and Msg a light copy without params or result. The caller must not
// change f afterwards. Append never blocks on subscribers.
func (s *Store) Append(f *Frame) uint64 {
	if f == nil {
		return 0
	}
	if f.Time.IsZero() {
		f.Time = time.Now()
	}
	stream := f.Chan.Kind == Stream
	cut := !stream && capFrame(f, s.cfg.FrameHead) // the copy of a big head is made outside the lock
	s.mu.Lock()
	s.totalFrames++
	s.totalBytes += int64(max(f.Size, len(f.Raw)))
	var rec *streamRecord
	if stream {
		rec = s.streamLocked(StreamKeyOf(f))
		if !rec.ingest(f) {
			s.aggregated++
			s.mu.Unlock()
			s.notify()
			return 0
		}
		cut = capFrame(f, s.cfg.FrameHead)
	}
	if cut {
		s.truncated++
	}
	seq := s.pushLocked(f)
	if rec != nil {
		if rec.stats.Frames == 0 {
			rec.stats.FirstSeq = seq
		}
		rec.stats.Frames++
	}
	s.mu.Unlock()
	s.notify()
	return seq
}

// pushLocked gives f the next Seq, puts it in the ring (evicting the oldest
// frame when full) and brings the held frames back within budget: while
// their bytes cost more than their metadata, the oldest frames lose their
// bytes; after that, the oldest frames are evicted. s.mu is held.
func (s *Store) pushLocked(f *Frame) uint64 {
	s.last++
	f.Seq = s.last
	if len(s.ring) < s.cfg.MaxFrames {
		s.growLocked()
		s.ring = append(s.ring, f)
	} else {
		s.evictLocked() // the oldest frame's slot is f's
		s.ring[s.index(f.Seq)] = f
	}
	s.held.add(weight(f), 1)
	for s.held.total() > s.cfg.MaxBytes {
		if s.rawFrom <= s.last && s.held.raw+s.held.decoded > s.held.meta {
			s.stripLocked()
		} else if !s.evictLocked() {
			break
		}
	}
	return f.Seq
}

// stripLocked drops the bytes of the oldest frame that still holds some.
// s.mu is held.
func (s *Store) stripLocked() {
	i := s.index(s.rawFrom)
	if old := s.ring[i]; holdsBytes(old) {
		s.forgetBytes(old)
		light := stripped(old)
		s.held.add(weight(light), 1)
		s.ring[i] = light
		s.stripped++
	}
	s.rawFrom++
}

// evictLocked drops the oldest frame, never the newest; it reports whether
// it did. s.mu is held.
func (s *Store) evictLocked() bool {
	if s.first >= s.last {
		return false
	}
	i := s.index(s.first)
	s.forgetBytes(s.ring[i])
	s.ring[i] = nil
	s.first++
	s.evicted++
	s.rawFrom = max(s.rawFrom, s.first)
	return true
}

// growLocked makes room for one more frame in a ring that is not full yet,
// never beyond MaxFrames.
func (s *Store) growLocked() {
	if len(s.ring) < cap(s.ring) {
		return
	}
	n := min(s.cfg.MaxFrames, max(2*cap(s.ring), 1024))
	grown := make([]*Frame, len(s.ring), n)
	copy(grown, s.ring)
	s.ring = grown
}

// forgetBytes takes a frame leaving the ring (or losing its bytes) off the budget.
func (s *Store) forgetBytes(f *Frame) { s.held.add(weight(f), -1) }

// index is the ring slot of a held Seq.
func (s *Store) index(seq uint64) int {
	return int((seq - 1) % uint64(s.cfg.MaxFrames))
}
