package capture

import (
	"cmp"
	"slices"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// StreamKey identifies an execution stream: the connection it arrived on, the
// request id and the stream tag of its header.
type StreamKey struct {
	Conn  string
	ReqID uint32
	Tag   uint32
}

// StreamKeyOf returns the key of the stream a frame belongs to (meaningful
// when f.Chan.Kind is Stream).
func StreamKeyOf(f *Frame) StreamKey {
	return StreamKey{Conn: f.Conn, ReqID: f.Chan.ReqID, Tag: f.Chan.Tag}
}

// StreamState is where an execution stream stands.
type StreamState uint8

// Stream states. A stream is open from its first chunk or mark until a
// transport marks it otherwise.
const (
	StreamOpen  StreamState = iota // receiving
	StreamDone                     // ended cleanly (FIN, gateway "done")
	StreamError                    // ended with an error ($/streamError, gateway "error")
	StreamReset                    // reset by either side (for example an injected stream)
)

// String names the state.
func (s StreamState) String() string {
	switch s {
	case StreamOpen:
		return "open"
	case StreamDone:
		return "done"
	case StreamError:
		return "error"
	case StreamReset:
		return "reset"
	}
	return "unknown"
}

// StreamStats is a snapshot of one stream's running totals.
type StreamStats struct {
	Key      StreamKey
	Dir      Dir         // direction of its first chunk
	State    StreamState // as marked by the transport; StreamOpen until then
	Err      error       // the error given with the last mark
	Bytes    int64       // payload bytes seen, header bytes excluded
	Chunks   int64       // chunk frames seen
	Size     int64       // total size the peer announced (SetStreamSize); -1 when unknown
	Label    StreamLabel // what the stream is, in its protocol's words (LabelStream); zero when none
	Duplex   bool        // chunks went both ways
	First    time.Time   // time of the first chunk
	Last     time.Time   // time of the latest chunk
	Ended    time.Time   // when it was marked done, error or reset; zero while open
	Rate     float64     // Bytes per second between First and Last; 0 until they differ
	HeadLen  int         // bytes StreamHead returns
	TailLen  int         // bytes StreamTail returns
	Frames   int         // chunks held as Frames (those carrying the head)
	FirstSeq uint64      // Seq of the first chunk held as a Frame; 0 when none
}

// StreamLabel is what a transport says of a stream in its protocol's own
// words: what the stream carries and, where the protocol names a stream
// by an id of its own rather than by its key (seed 003's gateway), that
// id and the side that opened the stream.
type StreamLabel struct {
	Text   string // a gateway stream's method, name and MIME type
	ID     string // the stream's own id (a gateway stream's GUID); "" when its key names it
	Opener Dir    // the side that opened the stream; meaningful with an ID
}

// Elapsed is the time from the first chunk to the latest chunk or the end.
func (s StreamStats) Elapsed() time.Duration {
	if s.First.IsZero() {
		return 0
	}
	end := s.Last
	if s.Ended.After(end) {
		end = s.Ended
	}
	return end.Sub(s.First)
}

// Kept is how many of the stream's payload bytes the store holds: its head
// and its tail, which overlap on a short stream.
func (s StreamStats) Kept() int64 { return min(int64(s.HeadLen+s.TailLen), s.Bytes) }

// Sampled reports whether the store let go of payload bytes between the
// stream's head and tail (or the transport never passed them on).
func (s StreamStats) Sampled() bool { return s.Kept() < s.Bytes }

// streamRecord is what the store keeps of one stream.
type streamRecord struct {
	stats  StreamStats
	order  uint64 // creation order, for Streams
	active uint64 // store tick of the latest activity, for forgetting
	ways   uint8  // the directions its chunks went, a bit each
	head   headBuffer
	tail   TailRing
}

// snapshot returns the stats with the derived fields filled in.
func (r *streamRecord) snapshot() StreamStats {
	s := r.stats
	s.Duplex = r.ways == 1<<Out|1<<In
	s.HeadLen = len(r.head.buf)
	s.TailLen = r.tail.len()
	if d := s.Last.Sub(s.First); d > 0 {
		s.Rate = float64(s.Bytes) / d.Seconds()
	}
	return s
}

// ingest counts one chunk and keeps its payload in head and tail. It reports
// whether the chunk carries part of the head, so should be held as a Frame.
func (r *streamRecord) ingest(f *Frame) bool {
	if r.stats.Chunks == 0 {
		r.stats.Dir = f.Dir
		r.stats.First = f.Time
	}
	if f.Time.After(r.stats.Last) {
		r.stats.Last = f.Time
	}
	r.stats.Chunks++
	r.ways |= 1 << (f.Dir & 1)
	inHead := r.stats.Frames == 0 ||
		r.stats.Bytes < int64(r.head.limit) && r.stats.Frames < maxHeadFrames
	seen := 0
	ForEachPayload(f, func(p []byte) {
		r.head.write(p)
		_, _ = r.tail.Write(p)
		seen += len(p)
	})
	r.stats.Bytes += int64(seen)
	if f.Size > len(f.Raw) {
		r.stats.Bytes += int64(f.Size - len(f.Raw)) // bytes the transport did not pass on
	}
	return inHead
}

// ForEachPayload calls fn with each payload range of a stream frame, in
// order: the ranges annotated FieldBody; without any, what follows the last
// header field; without annotations, all of Raw. Ranges are clipped to Raw.
func ForEachPayload(f *Frame, fn func([]byte)) {
	bodies, hdrEnd := false, 0
	for _, fd := range f.Fields {
		lo, hi, ok := clipRange(fd.Offset, fd.Len, len(f.Raw))
		if !ok {
			continue
		}
		switch fd.Kind {
		case proto.FieldBody:
			bodies = true
			fn(f.Raw[lo:hi])
		case proto.FieldHeader:
			hdrEnd = max(hdrEnd, hi)
		}
	}
	if !bodies {
		fn(f.Raw[hdrEnd:])
	}
}

// clipRange clips [off, off+n) to [0, size), reporting whether anything is left.
func clipRange(off, n, size int) (lo, hi int, ok bool) {
	if off < 0 || n <= 0 || off >= size {
		return 0, 0, false
	}
	return off, off + min(n, size-off), true
}

// streamLocked returns the record of key, creating it (and forgetting the
// least recently active stream, finished ones first, past MaxStreams).
// s.mu is held.
func (s *Store) streamLocked(key StreamKey) *streamRecord {
	s.tick++
	if r, ok := s.streams[key]; ok {
		r.active = s.tick
		return r
	}
	if len(s.streams) >= s.cfg.MaxStreams {
		s.forgetStreamLocked()
	}
	r := &streamRecord{
		stats:  StreamStats{Key: key, Size: -1},
		order:  s.tick,
		active: s.tick,
		head:   headBuffer{limit: s.cfg.StreamHead},
		tail:   TailRing{limit: s.cfg.StreamTail},
	}
	s.streams[key] = r
	return r
}

// forgetStreamLocked drops the stream to forget: the least recently active
// finished one, or the least recently active of all when none is finished.
func (s *Store) forgetStreamLocked() {
	key, ok := toForget(s.streams, func(r *streamRecord) (bool, uint64) { return r.stats.State != StreamOpen, r.active })
	if ok {
		delete(s.streams, key)
		s.forgotten++
	}
}

// toForget picks the key of the record to forget in recs: the least
// recent finished one, or the least recent of all when none is finished.
// rank says whether a record is finished and how recent it is.
func toForget[K comparable, R any](recs map[K]R, rank func(R) (finished bool, recent uint64)) (K, bool) {
	var (
		victim       K
		vDone, found bool
		vAge         uint64
	)
	for k, r := range recs {
		done, age := rank(r)
		if !found || done && !vDone || done == vDone && age < vAge {
			victim, vDone, vAge, found = k, done, age, true
		}
	}
	return victim, found
}

// MarkStream records a stream's state as a transport learns it: done on FIN,
// error with its error, reset when either side resets it. An unknown stream
// is created, so a stream reset before any chunk is still shown.
func (s *Store) MarkStream(key StreamKey, state StreamState, err error) {
	s.mu.Lock()
	r := s.streamLocked(key)
	r.stats.State, r.stats.Err = state, err
	if state == StreamOpen {
		r.stats.Ended = time.Time{}
	} else {
		r.stats.Ended = s.now()
	}
	s.mu.Unlock()
	s.notify()
}

// maxStreamLabel bounds a stream's label, which a server's strings make.
const maxStreamLabel = 256

// LabelStream records what a stream is (a gateway stream's method, name
// and MIME type, its GUID and who opened it), its words cut to 256 bytes
// each on a character boundary.
func (s *Store) LabelStream(key StreamKey, label StreamLabel) {
	label.Text, label.ID = clipAt(label.Text, maxStreamLabel), clipAt(label.ID, maxStreamLabel)
	s.mu.Lock()
	s.streamLocked(key).stats.Label = label
	s.mu.Unlock()
	s.notify()
}

// SetStreamSize records the total payload size the peer announced for a
// stream (the "size" of a ref/stream content item).
func (s *Store) SetStreamSize(key StreamKey, size int64) {
	s.mu.Lock()
	s.streamLocked(key).stats.Size = size
	s.mu.Unlock()
	s.notify()
}

// Streams returns a snapshot of every stream the store remembers, oldest first.
func (s *Store) Streams() []StreamStats {
	s.mu.Lock()
	recs := make([]*streamRecord, 0, len(s.streams))
	for _, r := range s.streams {
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(a, b *streamRecord) int { return cmp.Compare(a.order, b.order) })
	out := make([]StreamStats, len(recs))
	for i, r := range recs {
		out[i] = r.snapshot()
	}
	s.mu.Unlock()
	return out
}

// Stream returns a snapshot of one stream.
func (s *Store) Stream(key StreamKey) (StreamStats, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.streams[key]
	if !ok {
		return StreamStats{}, false
	}
	return r.snapshot(), true
}

// StreamHead returns a copy of the first payload bytes of a stream (at most
// Config.StreamHead), or nil for an unknown stream.
func (s *Store) StreamHead(key StreamKey) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.streams[key]; ok {
		return r.head.bytes()
	}
	return nil
}

// StreamTail returns a copy of the last payload bytes of a stream (at most
// Config.StreamTail), or nil for an unknown stream. When the stream is
// shorter than StreamHead+StreamTail, head and tail overlap.
func (s *Store) StreamTail(key StreamKey) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.streams[key]; ok {
		return r.tail.Bytes()
	}
	return nil
}

// now is the store's clock (Config.Clock).
func (s *Store) now() time.Time { return s.cfg.Clock() }

// AddStreamRest counts what a recording kept only as totals of a stream:
// chunks and payload bytes past the part it kept whole, the time of the
// latest of them, and the stream's last bytes (tail, which become the
// newest bytes of the stream's tail). A replay calls it; a live transport
// never does.
func (s *Store) AddStreamRest(key StreamKey, chunks, bytes int64, last time.Time, tail []byte) {
	s.mu.Lock()
	r := s.streamLocked(key)
	if r.stats.Chunks == 0 && chunks > 0 {
		r.stats.First = last
	}
	r.stats.Chunks += chunks
	r.stats.Bytes += bytes
	if last.After(r.stats.Last) {
		r.stats.Last = last
	}
	_, _ = r.tail.Write(tail)
	s.mu.Unlock()
	s.notify()
}
