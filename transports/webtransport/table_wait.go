package webtransport

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// StreamWaitError says the client stopped waiting for the execution
// streams of a request before they ended: none showed a sign of life
// (opening, payload bytes, an end) within the idle limit, or the caller's
// context ended (its cause is Err). It names the first stream still
// awaited.
type StreamWaitError struct {
	RequestID, StreamTag uint32
	Opened               bool          // the stream had opened
	Bytes                int64         // payload bytes it had brought
	Idle                 time.Duration // the idle limit that ran out; 0 when the context ended
	Err                  error         // why the context ended, when it did
}

func (e *StreamWaitError) Error() string {
	name := fmt.Sprintf("execution stream %d/%d", e.RequestID, e.StreamTag)
	switch {
	case e.Idle > 0 && e.Opened:
		return fmt.Sprintf("%s stalled: no bytes for %s after %d", name, e.Idle, e.Bytes)
	case e.Idle > 0:
		return fmt.Sprintf("%s, which the result refers to, was not opened within %s", name, e.Idle)
	}
	return fmt.Sprintf("stopped waiting: %s: %v", e.Awaited(), e.Err)
}

// Awaited says how the stream stood when the wait ended: "execution stream
// 2/1 was still open after 4096 bytes", or that it was never opened.
func (e *StreamWaitError) Awaited() string {
	name := fmt.Sprintf("execution stream %d/%d", e.RequestID, e.StreamTag)
	if e.Opened {
		return fmt.Sprintf("%s was still open after %d bytes", name, e.Bytes)
	}
	return name + ", which the result refers to, was never opened"
}

// Unwrap returns why the context ended; for an idle limit,
// context.DeadlineExceeded.
func (e *StreamWaitError) Unwrap() error {
	if e.Idle > 0 {
		return context.DeadlineExceeded
	}
	return e.Err
}

// AwaitStreamsIdle is AwaitStreams that also gives up when idle passes
// without a sign of life from the request's streams (one opening, payload
// bytes, one ending): it then returns a *StreamWaitError, as it does when
// ctx ends. idle 0 waits as long as ctx lets it. Giving up is for good:
// the streams that have not ended are stopped, and nothing (Close's drain
// included) waits for them any more.
func (t *Transport) AwaitStreamsIdle(ctx context.Context, id jsonrpc.ID, idle time.Duration) error {
	n, ok := FlowRequestID(id)
	if !ok {
		return nil
	}
	return t.table.awaitOrGiveUp(ctx, n, idle)
}

// awaitOrGiveUp is awaitIdle that gives the streams up when it stops
// waiting for them.
func (s *streamTable) awaitOrGiveUp(ctx context.Context, id uint32, idle time.Duration) error {
	err := s.awaitIdle(ctx, id, idle)
	var wait *StreamWaitError
	if errors.As(err, &wait) {
		s.abandon(wait)
	}
	return err
}

// await waits until every stream of request id has ended and returns their
// failures, joined; nil when all ended cleanly or none is known.
func (s *streamTable) await(ctx context.Context, id uint32) error { return s.awaitIdle(ctx, id, 0) }

// awaitIdle is await that, with idle set, gives up after that long without
// a sign of life from the request's streams.
func (s *streamTable) awaitIdle(ctx context.Context, id uint32, idle time.Duration) error {
	s.mu.Lock()
	s.awaited++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.awaited--
		s.mu.Unlock()
	}()
	var expired <-chan time.Time
	alive := func() {}
	if idle > 0 {
		timer := time.NewTimer(idle)
		defer timer.Stop()
		expired, alive = timer.C, func() { timer.Reset(idle) }
	}
	last := int64(-1)
	for {
		s.mu.Lock()
		r := s.reqs[id]
		pending, errs := r.status(id, s.over)
		life, changed := r.life(), s.changed
		s.mu.Unlock()
		if !pending {
			return errors.Join(errs...)
		}
		if life != last {
			last = life
			alive()
		}
		select {
		case <-changed:
		case <-expired:
			return s.stoppedWaiting(id, idle, nil)
		case <-ctx.Done():
			return s.stoppedWaiting(id, 0, context.Cause(ctx))
		}
	}
}

// stoppable records how to stop reading stream (id, tag), which has just
// arrived; it stops it at once when the client gave its request up.
func (s *streamTable) stoppable(id, tag uint32, stop func()) {
	s.mu.Lock()
	r := s.reqs[id]
	st := r.streamOrNil(tag)
	if st != nil {
		st.stop = stop
	}
	gone := r != nil && r.abandoned
	s.mu.Unlock()
	if gone {
		stop()
	}
}

// abandon gives up the streams of the request e names that have not ended:
// nothing waits for those that never arrived any more (Close's drain
// included), and those being read are stopped, so that their readers end.
func (s *streamTable) abandon(e *StreamWaitError) {
	s.mu.Lock()
	var stops []func()
	if r := s.reqs[e.RequestID]; r != nil {
		r.abandoned = true
		for _, st := range r.streams {
			switch {
			case st.ended:
			case st.arrived:
				if st.stop != nil {
					stops = append(stops, st.stop)
				}
			default:
				st.ended, st.err = true, e
			}
		}
		s.broadcastLocked()
	}
	s.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
}

// life is a count that grows with every sign of life of the request's
// streams: one opening, payload bytes, one ending. The table's lock is held.
func (r *flowRequest) life() int64 {
	var n int64
	if r == nil {
		return n
	}
	for _, st := range r.streams {
		n += st.bytes
		if st.arrived {
			n++
		}
		if st.ended {
			n++
		}
	}
	return n
}

// stoppedWaiting describes the first stream of request id still awaited.
func (s *streamTable) stoppedWaiting(id uint32, idle time.Duration, cause error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := &StreamWaitError{RequestID: id, Idle: idle, Err: cause}
	if r := s.reqs[id]; r != nil {
		for _, tag := range sortedTags(r) {
			if st := r.streams[tag]; !st.ended && (st.arrived || st.referenced) {
				e.StreamTag, e.Opened, e.Bytes = tag, st.arrived, st.bytes
				break
			}
		}
	}
	return e
}

// progressed records n payload bytes read on stream (id, tag): a sign of
// life for whoever awaits the request's streams (nobody is woken when no
// one awaits).
func (s *streamTable) progressed(id, tag uint32, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.reqs[id].streamOrNil(tag)
	if st == nil || st.ended {
		return
	}
	st.bytes += int64(n)
	if s.awaited > 0 {
		s.broadcastLocked()
	}
}

// sortedTags returns the tags of r's streams in order.
func sortedTags(r *flowRequest) []uint32 {
	tags := make([]uint32, 0, len(r.streams))
	for tag := range r.streams {
		tags = append(tags, tag)
	}
	slices.Sort(tags)
	return tags
}

// status reports whether a stream of the request is still expected and
// the failures of those that ended, by tag. The table's lock is held.
func (r *flowRequest) status(id uint32, over bool) (pending bool, errs []error) {
	if r == nil {
		return false, nil
	}
	for _, tag := range sortedTags(r) {
		st := r.streams[tag]
		switch {
		case st.ended && st.err != nil:
			errs = append(errs, st.err)
		case st.ended:
		case st.arrived:
			pending = true
		case st.referenced && over:
			errs = append(errs, &StreamFailedError{RequestID: id, StreamTag: tag, Err: errNeverArrived})
		case st.referenced:
			pending = true
		}
	}
	return pending, errs
}

// drain waits until no stream is open or awaited (referenced by a result
// and not arrived yet), or ctx ends.
func (s *streamTable) drain(ctx context.Context) {
	for {
		s.mu.Lock()
		busy, changed := s.reading > 0 || s.awaitingLocked(), s.changed
		s.mu.Unlock()
		if !busy {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

// awaitingLocked reports whether a result refers to a stream that has not
// arrived yet. s.mu is held.
func (s *streamTable) awaitingLocked() bool {
	for _, r := range s.reqs {
		if !r.answered {
			continue
		}
		for _, st := range r.streams {
			if st.referenced && !st.arrived && !st.ended {
				return true
			}
		}
	}
	return false
}
