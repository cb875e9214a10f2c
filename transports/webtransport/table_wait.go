package webtransport

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// await waits until every stream of request id has ended and returns their
// failures, joined; nil when all ended cleanly or none is known.
func (s *streamTable) await(ctx context.Context, id uint32) error {
	for {
		s.mu.Lock()
		pending, errs := s.reqs[id].status(id, s.over)
		changed := s.changed
		s.mu.Unlock()
		if !pending {
			return errors.Join(errs...)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("stopped waiting for the execution streams of request %d: %w", id, context.Cause(ctx))
		}
	}
}

// status reports whether a stream of the request is still expected and
// the failures of those that ended, by tag. The table's lock is held.
func (r *flowRequest) status(id uint32, over bool) (pending bool, errs []error) {
	if r == nil {
		return false, nil
	}
	tags := make([]uint32, 0, len(r.streams))
	for tag := range r.streams {
		tags = append(tags, tag)
	}
	slices.Sort(tags)
	for _, tag := range tags {
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
