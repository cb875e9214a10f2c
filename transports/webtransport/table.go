package webtransport

import (
	"fmt"
	"slices"
	"sync"
)

// Bounds of the stream table, so that a server cannot grow it at will.
const (
	// maxTrackedRequests bounds the requests the stream table remembers;
	// past it, the oldest whose streams are all over (or that were
	// cancelled) are forgotten first.
	maxTrackedRequests = 4096
	// MaxStreamsPerRequest bounds the streams one request may have,
	// referred to by its result, opened by the server or reported: a
	// stream past it is reset as an injection, a ref/stream ignored.
	MaxStreamsPerRequest = 1024
	// maxEarlyReports bounds the $/streamError of one unanswered request
	// that name a stream which has not arrived (its header may still be on
	// its way); past it, and once the request is answered, a $/streamError
	// for a stream never opened nor referred to is ignored and counted.
	maxEarlyReports = 16
)

// flowStream is what the client knows of one execution stream.
type flowStream struct {
	referenced bool          // a ref/stream item of the result names it
	arrived    bool          // its header was read
	ended      bool          // it finished (or failed before it arrived)
	err        error         // why it failed; nil when it ended cleanly
	remote     string        // the server's $/streamError text, if any
	bytes      int64         // payload bytes received
	reported   chan struct{} // closed when $/streamError names it
	stop       func()        // stops reading it once arrived (nil before)
}

// flowRequest is one request the client sent, with its streams.
type flowRequest struct {
	answered  bool
	cancelled bool
	abandoned bool                   // the client stopped waiting for its streams
	streams   map[uint32]*flowStream // by stream tag, at most MaxStreamsPerRequest
	early     int                    // streams known only from a $/streamError
}

// settled reports whether nothing more is expected for the request: it
// was answered (or given up on) and none of its streams is open or awaited.
func (r *flowRequest) settled() bool {
	for _, st := range r.streams {
		if !st.ended && (st.arrived || st.referenced && r.answered) {
			return false
		}
	}
	return r.answered || r.cancelled
}

// streamTable correlates execution streams with the requests in flight and
// the ref/stream items of their results, in whichever order they arrive.
type streamTable struct {
	mu      sync.Mutex
	reqs    map[uint32]*flowRequest
	order   []uint32      // request ids, oldest first, for forgetting
	reading int           // streams arrived and not ended
	changed chan struct{} // closed and replaced at every change
	over    bool          // the session is gone: missing streams never come
	ignored uint64        // $/streamError ignored (ignoredReports)
	awaited int           // await calls running: payload bytes wake them
}

func newStreamTable() *streamTable {
	return &streamTable{reqs: make(map[uint32]*flowRequest), changed: make(chan struct{})}
}

// broadcastLocked wakes every waiter. s.mu is held.
func (s *streamTable) broadcastLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// stream returns the stream of a request, creating it; nil when it is new
// and the request has MaxStreamsPerRequest already. s.mu is held.
func (r *flowRequest) stream(tag uint32) *flowStream {
	st := r.streams[tag]
	if st == nil && len(r.streams) < MaxStreamsPerRequest {
		st = &flowStream{reported: make(chan struct{})}
		r.streams[tag] = st
	}
	return st
}

// sent records a request going out.
func (s *streamTable) sent(id uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.reqs[id]; r != nil {
		// The id is reused: its streams stay known, so that the open ones
		// are still counted when they end.
		r.answered, r.cancelled, r.abandoned = false, false, false
		return
	}
	s.order = append(s.order, id)
	s.reqs[id] = &flowRequest{streams: make(map[uint32]*flowStream)}
	s.forgetLocked()
}

// forgetLocked keeps the table within maxTrackedRequests: it drops the
// oldest settled requests first, then, when a misbehaving server leaves
// too many unsettled (streams announced and never sent), the oldest whose
// streams are not being read. s.mu is held.
func (s *streamTable) forgetLocked() {
	if len(s.reqs) <= maxTrackedRequests {
		return
	}
	// Forget an eighth at once, so that the passes cost O(1) per request.
	const keep = maxTrackedRequests - maxTrackedRequests/8
	for _, evictable := range []func(*flowRequest) bool{(*flowRequest).settled, (*flowRequest).idle} {
		for tries := len(s.order); len(s.reqs) > keep && tries > 0; tries-- {
			id := s.order[0]
			s.order = s.order[1:]
			r := s.reqs[id]
			switch {
			case r == nil:
			case evictable(r):
				delete(s.reqs, id)
			default:
				s.order = append(s.order, id)
			}
		}
	}
	if cap(s.order) > 4*maxTrackedRequests {
		s.order = slices.Clone(s.order)
	}
}

// idle reports whether none of the request's streams is being read.
func (r *flowRequest) idle() bool {
	for _, st := range r.streams {
		if st.arrived && !st.ended {
			return false
		}
	}
	return true
}

// cancelled records that the client gave up on a request.
func (s *streamTable) cancelled(id uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.reqs[id]; r != nil {
		r.cancelled = true
	}
}

// answered records the response of a request and the streams its result
// refers to. It reports whether the request was one the client sent.
func (s *streamTable) answered(id uint32, refs []StreamRef) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.reqs[id]
	if r == nil {
		return false
	}
	r.answered = true
	for _, ref := range refs {
		if st := r.stream(ref.StreamTag); st != nil {
			st.referenced = true
		}
	}
	// A stream known only from a $/streamError that the result does not
	// refer to is nothing the request waits for.
	for tag, st := range r.streams {
		if !st.arrived && !st.referenced {
			delete(r.streams, tag)
		}
	}
	s.broadcastLocked()
	return true
}

// open decides whether a stream whose header names (id, tag) is expected.
// It returns "" and counts the stream as open when it is, otherwise why it
// is an injection.
func (s *streamTable) open(id, tag uint32) (injection string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.reqs[id]
	if r == nil {
		return "that request is not in flight"
	}
	st := r.streams[tag]
	switch {
	case st != nil && st.arrived:
		return "that request already has a stream with this tag"
	case r.answered && st == nil:
		return "that request was answered and its result refers to no stream with this tag"
	}
	if st = r.stream(tag); st == nil {
		return fmt.Sprintf("that request has %d streams already, the most mcpscope tracks", MaxStreamsPerRequest)
	}
	st.arrived, st.ended, st.err = true, false, nil
	s.reading++
	s.broadcastLocked()
	return ""
}

// outcome returns what ended would record for an open stream after n
// payload bytes, without recording it: the transport marks the capture
// first, so that whoever awaits the stream sees the capture complete.
func (s *streamTable) outcome(id, tag uint32, n int64, cause error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	remote := ""
	if st := s.reqs[id].streamOrNil(tag); st != nil {
		remote = st.remote
	}
	return streamFailure(id, tag, n, remote, cause)
}

// ended records the end of an open stream after n payload bytes, cause
// being nil on a clean FIN. It returns the stream's outcome: nil, or a
// *StreamFailedError with cause and the server's $/streamError reason.
func (s *streamTable) ended(id, tag uint32, n int64, cause error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.reqs[id].streamOrNil(tag)
	if st == nil || !st.arrived || st.ended {
		return streamFailure(id, tag, n, "", cause)
	}
	st.ended, st.bytes = true, n
	st.err = streamFailure(id, tag, n, st.remote, cause)
	s.reading--
	s.broadcastLocked()
	return st.err
}

// streamFailure is the outcome of a stream that ended after n bytes with
// cause (nil on FIN) and the server's reason remote ("" when none).
func streamFailure(id, tag uint32, n int64, remote string, cause error) error {
	if cause == nil && remote == "" {
		return nil
	}
	return &StreamFailedError{RequestID: id, StreamTag: tag, Bytes: n, Reported: remote, Err: cause}
}

// streamOrNil returns the stream with tag, or nil (also for a nil request).
func (r *flowRequest) streamOrNil(tag uint32) *flowStream {
	if r == nil {
		return nil
	}
	return r.streams[tag]
}

// reportedBy returns a channel closed when $/streamError names the stream.
func (s *streamTable) reportedBy(id, tag uint32) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.reqs[id].streamOrNil(tag); st != nil {
		return st.reported
	}
	return nil
}

// remoteError records the server's $/streamError for (id, tag). It returns
// the error to mark the stream with now, or nil when the stream is still
// being read (its reader marks it when it ends) or the report is ignored:
// a repeat, or one naming a request not in the table or a stream never
// opened nor referred to (bar maxEarlyReports before the answer).
func (s *streamTable) remoteError(p StreamErrorParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.reqs[p.RequestID]
	st := r.streamOrNil(p.StreamTag)
	switch {
	case st == nil && (r == nil || r.answered || r.early >= maxEarlyReports):
		s.ignored++
		return nil
	case st == nil:
		if st = r.stream(p.StreamTag); st == nil {
			s.ignored++
			return nil
		}
		r.early++
	case st.remote != "":
		s.ignored++
		return nil
	}
	st.remote = p.Error
	if st.remote == "" {
		st.remote = "no reason given"
	}
	close(st.reported)
	failed := &StreamFailedError{RequestID: p.RequestID, StreamTag: p.StreamTag, Reported: st.remote}
	switch {
	case st.arrived && !st.ended:
		return nil
	case st.arrived:
		failed.Bytes, failed.Err = st.bytes, st.err
	default:
		st.ended = true
	}
	st.err = failed
	s.broadcastLocked()
	return failed
}

// finish says the session is gone: streams that never arrived never will.
func (s *streamTable) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.over = true
	s.broadcastLocked()
}

// ignoredReports returns how many $/streamError were ignored: repeats, and
// those naming a request not in the table or a stream never opened nor
// referred to.
func (s *streamTable) ignoredReports() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ignored
}

// openStreams returns how many streams are being read.
func (s *streamTable) openStreams() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reading
}
