package demohttp

import (
	"errors"
	"sync"
)

// format is how a stream's HTTP response carries it.
type format int

const (
	formatAuto format = iota // one JSON body when the answer comes first, else SSE
	formatSSE                // text/event-stream
	formatJSON               // one application/json body: the answer
	formatHTML               // one text/html page holding the answer (misbehave wrong_content_type)
)

// cutKind says how misbehave cut_sse ends the connection after an item.
type cutKind int

const (
	cutNone   cutKind = iota
	cutClean          // end the response
	cutAbrupt         // reset the connection
)

// item is one thing a stream sends: an event, a comment, or a generated
// huge event.
type item struct {
	pos     uint64 // place in the stream, for the writer's bookkeeping
	seq     uint64 // event id number; 0: no id, never replayed
	name    string // event name ("" : the stream's own)
	data    []byte // event data, or the body of a one-body answer
	noData  bool   // an event without a data field
	comment string // a comment instead of an event
	huge    int64  // a generated event whose data is this many bytes
	retry   bool   // carries the retry field
	final   bool   // the answer: the stream ends after it
	cut     cutKind
	status  int // HTTP status of a one-body answer (0: 200)
}

// size is what the item counts against the backlog.
func (it item) size() int64 {
	if it.huge > 0 {
		return it.huge
	}
	return int64(len(it.data)+len(it.comment)+len(it.name)) + 32
}

// streamConfig fixes what a stream is.
type streamConfig struct {
	num          uint64 // stream number in the session (event ids "NUM-SEQ")
	ids          bool   // events carry ids and can be resumed
	name         string // event name of messages ("message", seed 004's "result")
	format       format
	call         string   // the request id (key) whose answer this is, if any
	huge         hugeWrap // what surrounds the padding of a huge event
	replayEvents int
	replayBytes  int64
	backlog      int64
}

// Errors of streams.
var (
	errStreamEnded = errors.New("the stream has ended")
	errNotSSE      = errors.New("the answer is one body, not an SSE stream")
	errBusy        = errors.New("a connection is writing this stream already")
	errTooOld      = errors.New("the events after this id are no longer kept")
	errUnknownID   = errors.New("no event of this stream has this id")
)

// stream is one answer of the server: the SSE stream of a POST or a GET,
// or a one-body answer. Items are queued by senders and written, in order,
// by the connection attached (see writer); with ids, the written events
// are kept (bounded) so that a new connection can resume after a
// Last-Event-ID. Senders wait while the unwritten bytes are over the
// backlog bound.
type stream struct {
	cfg streamConfig

	mu        sync.Mutex
	queue     []item // pushed, not yet written by the attached connection
	kept      []item // written events with ids, oldest first
	keptBytes int64
	backlog   int64  // bytes in queue
	pos       uint64 // items pushed
	seq       uint64 // last event id number given
	trimmed   uint64 // highest id number dropped from kept
	written   uint64 // highest id number written (or resumed from)
	format    format
	answered  bool // the final item was pushed
	finished  bool // the final item was written
	closed    bool
	heartbeat bool
	eager     bool   // the writer writes the response headers before any item
	committed bool   // a connection wrote the response headers
	gen       uint64 // connections attached so far
	attached  bool
	wake      chan struct{} // the writer has something to do (cap 1)
	space     chan struct{} // closed and replaced when the backlog shrinks
}

// newStream returns an empty stream.
func newStream(cfg streamConfig) *stream {
	return &stream{cfg: cfg, format: cfg.format, wake: make(chan struct{}, 1), space: make(chan struct{})}
}

// push queues an item, waiting while the backlog is full. It fails once
// the answer was pushed or the stream closed, and for anything but the
// answer on a one-body stream (errNotSSE).
func (s *stream) push(it item) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		switch {
		case s.closed || s.answered:
			return errStreamEnded
		case !it.final && (s.format == formatJSON || s.format == formatHTML):
			return errNotSSE
		}
		if s.backlog == 0 || s.backlog+it.size() <= s.cfg.backlog {
			break
		}
		space := s.space
		s.mu.Unlock()
		<-space
		s.mu.Lock()
	}
	if s.format == formatAuto {
		s.format = formatSSE
		if it.final {
			s.format = formatJSON
		}
	}
	s.pos++
	it.pos = s.pos
	if s.cfg.ids && it.comment == "" && it.huge == 0 {
		s.seq++
		it.seq = s.seq
	}
	s.answered = s.answered || it.final
	s.queue = append(s.queue, it)
	s.backlog += it.size()
	s.signal()
	return nil
}

// signal wakes the writer.
func (s *stream) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// attach makes a new connection the stream's writer and returns its
// generation. With resume, it writes the events after id number *resume
// first, and takes the stream over from a connection still attached;
// without, a second connection is errBusy.
func (s *stream) attach(resume *uint64) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, errStreamEnded
	}
	if resume == nil && s.attached {
		return 0, errBusy
	}
	if resume != nil {
		if err := s.rewind(*resume); err != nil {
			return 0, err
		}
	}
	if s.gen > 0 {
		s.dropVolatile()
	}
	s.gen++
	s.attached = true
	s.signal()
	return s.gen, nil
}

// rewind makes event k the last one written: the kept events after it go
// back to the queue, and queued events up to it (written by a connection
// that has not said so yet) count as written. An id the stream never gave
// is errUnknownID, one whose successors are no longer kept errTooOld.
func (s *stream) rewind(k uint64) error {
	switch {
	case !s.cfg.ids || k > s.seq:
		return errUnknownID
	case k < s.trimmed:
		return errTooOld
	}
	var again []item
	for _, it := range s.kept {
		if it.seq > k {
			again = append(again, it)
			s.keptBytes -= it.size()
			s.backlog += it.size()
		}
	}
	s.kept = s.kept[:len(s.kept)-len(again)]
	queue := again
	for _, it := range s.queue {
		if it.seq > 0 && it.seq <= k {
			s.backlog -= it.size()
			s.finished = s.finished || it.final
			s.keep(it)
			continue
		}
		queue = append(queue, it)
	}
	s.queue = queue
	s.written = k
	s.freeSpace()
	return nil
}

// dropVolatile drops the comments and huge events queued for a connection
// that went: they are not for the next one.
func (s *stream) dropVolatile() {
	kept := s.queue[:0]
	for _, it := range s.queue {
		if it.comment == "" && it.huge == 0 {
			kept = append(kept, it)
		} else {
			s.backlog -= it.size()
		}
	}
	clear(s.queue[len(kept):])
	s.queue = kept
	s.freeSpace()
}

// detach ends the writing of connection gen, if it is still the writer.
func (s *stream) detach(gen uint64) {
	s.mu.Lock()
	if s.gen == gen {
		s.attached = false
	}
	s.mu.Unlock()
}

// close ends the stream: senders and the writer stop.
func (s *stream) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

// closeLocked is close with s.mu held.
func (s *stream) closeLocked() {
	if s.closed {
		return
	}
	s.closed = true
	s.freeSpace()
	s.signal()
}

// endUnanswered closes the stream unless its answer was pushed: the call
// that owns it ended without one.
func (s *stream) endUnanswered() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.answered {
		s.closeLocked()
	}
}

// freeSpace wakes the senders waiting for the backlog.
func (s *stream) freeSpace() {
	close(s.space)
	s.space = make(chan struct{})
}

// writeState is what the writer needs to know of the stream at one moment.
type writeState struct {
	item      item
	ok        bool // item is the next to write
	replaced  bool // another connection writes the stream now
	closed    bool
	heartbeat bool
	eager     bool
	format    format
	written   uint64
	wake      chan struct{}
}

// next returns the next item for writer gen, or why there is none.
func (s *stream) next(gen uint64) writeState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := writeState{replaced: s.gen != gen, closed: s.closed, heartbeat: s.heartbeat, eager: s.eager, format: s.format, written: s.written, wake: s.wake}
	if !st.replaced && !s.closed && len(s.queue) > 0 {
		st.item, st.ok = s.queue[0], true
	}
	return st
}

// advance records that writer gen wrote it; false when gen is no longer
// the writer.
func (s *stream) advance(gen uint64, it item) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen != gen || len(s.queue) == 0 || s.queue[0].pos != it.pos {
		return false
	}
	s.queue[0] = item{}
	s.queue = s.queue[1:]
	s.backlog -= it.size()
	s.freeSpace()
	if it.seq > 0 {
		s.written = it.seq
		s.keep(it)
	}
	if it.final {
		s.finished = true
	}
	return true
}

// keep adds a written event to the replay buffer and drops the oldest
// beyond its bounds. A replayed event is not cut again.
func (s *stream) keep(it item) {
	it.cut = cutNone
	s.kept = append(s.kept, it)
	s.keptBytes += it.size()
	for len(s.kept) > 0 && (len(s.kept) > s.cfg.replayEvents || s.keptBytes > s.cfg.replayBytes) {
		s.trimmed = s.kept[0].seq
		s.keptBytes -= s.kept[0].size()
		s.kept[0] = item{}
		s.kept = s.kept[1:]
	}
}

// setHTML makes a stream nothing was pushed to yet answer with one
// text/html page (misbehave wrong_content_type); false when too late.
func (s *stream) setHTML() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pos > 0 || s.closed || s.committed {
		return false
	}
	s.format = formatHTML
	return true
}

// startHeartbeats makes the writer send heartbeat comments while it waits,
// and with eager write the response headers at once; false when the stream
// answers with one body.
func (s *stream) startHeartbeats(eager bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.format {
	case formatAuto:
		s.format = formatSSE
	case formatSSE:
	default:
		return false
	}
	s.heartbeat = true
	s.eager = s.eager || eager
	s.signal()
	return true
}

// markCommitted records that the response headers went out.
func (s *stream) markCommitted() {
	s.mu.Lock()
	s.committed = true
	s.mu.Unlock()
}

// isStream reports whether the stream is (or may become) an SSE stream.
func (s *stream) isStream() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.format == formatSSE || s.format == formatAuto
}

// isClosed reports whether the stream was closed.
func (s *stream) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// isAnswered reports whether the answer was pushed.
func (s *stream) isAnswered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answered
}

// isFinished reports whether the answer was written.
func (s *stream) isFinished() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.finished
}
