package capture

// Stats is a snapshot of what a Store holds and has seen.
type Stats struct {
	Frames       int    // frames held
	FirstSeq     uint64 // Seq of the oldest held frame (LastSeq+1 when none is held)
	LastSeq      uint64 // Seq of the newest held frame; 0 before the first
	Evicted      uint64 // frames evicted by the MaxFrames cap or the MaxBytes budget
	Stripped     uint64 // held frames whose bytes were dropped to stay within MaxBytes
	Truncated    uint64 // frames cut to FrameHead on arrival
	Aggregated   uint64 // stream chunks counted in their stream and not held as frames
	RawBytes     int64  // Σ len(Raw) of held frames
	DecodedBytes int64  // Σ decoded params, result and error data of held frames' Msg, beside their Raw
	MetaBytes    int64  // what held frames cost beside those bytes: Frame, Fields, Msg, slots
	DroppedBytes int64  // TotalBytes − RawBytes: ingested bytes no held Raw keeps
	TotalFrames  uint64 // frames ever appended (held or not)
	TotalBytes   int64  // Σ Size of frames ever appended
	Streams      int    // streams remembered
	Forgotten    uint64 // streams forgotten past MaxStreams
}

// Stats returns a snapshot of the counters.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{
		Frames:       s.heldLocked(),
		FirstSeq:     s.first,
		LastSeq:      s.last,
		Evicted:      s.evicted,
		Stripped:     s.stripped,
		Truncated:    s.truncated,
		Aggregated:   s.aggregated,
		RawBytes:     s.held.raw,
		DecodedBytes: s.held.decoded,
		MetaBytes:    s.held.meta,
		DroppedBytes: s.totalBytes - s.held.raw,
		TotalFrames:  s.totalFrames,
		TotalBytes:   s.totalBytes,
		Streams:      len(s.streams),
		Forgotten:    s.forgotten,
	}
}

// heldLocked is how many frames are held. s.mu is held.
func (s *Store) heldLocked() int { return int(s.last + 1 - s.first) }

// Len returns how many frames are held.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.heldLocked()
}

// Get returns the held frame with Seq seq. A frame whose bytes were dropped
// for the budget comes back as a copy with Raw nil and Kept 0.
func (s *Store) Get(seq uint64) (*Frame, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seq < s.first || seq > s.last {
		return nil, false
	}
	return s.ring[s.index(seq)], true
}

// Window returns up to n held frames in Seq order, starting at Seq from, or
// at the oldest held frame when from has been evicted. Its cost is O(n).
func (s *Store) Window(from uint64, n int) []*Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	from = max(from, s.first)
	if n <= 0 || from > s.last {
		return nil
	}
	return s.copyLocked(from, int(min(uint64(n), s.last-from+1)))
}

// Last returns the newest n held frames (fewer when fewer are held), oldest
// first. Its cost is O(n).
func (s *Store) Last(n int) []*Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	n = min(n, s.heldLocked())
	if n <= 0 {
		return nil
	}
	return s.copyLocked(s.last-uint64(n)+1, n)
}

// copyLocked copies n held frames from Seq from on. s.mu is held.
func (s *Store) copyLocked(from uint64, n int) []*Frame {
	out := make([]*Frame, n)
	i := s.index(from)
	k := copy(out, s.ring[i:min(len(s.ring), i+n)])
	copy(out[k:], s.ring[:n-k])
	return out
}
