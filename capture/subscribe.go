package capture

import (
	"slices"
	"sync"
)

// Subscribe returns a signal that says "the store changed since you last
// looked": new frames, stream progress or a stream mark. The channel has
// capacity one and is sent to without blocking, so many changes coalesce into
// one pending signal; the subscriber reads Stats, Window or Streams to see
// what changed. cancel stops the signals; it may be called more than once.
// The channel is never closed.
func (s *Store) Subscribe() (ch <-chan struct{}, cancel func()) {
	c := make(chan struct{}, 1)
	s.subMu.Lock()
	s.setSubsLocked(append(slices.Clip(s.currentSubs()), c))
	s.subMu.Unlock()
	var once sync.Once
	return c, func() {
		once.Do(func() {
			s.subMu.Lock()
			defer s.subMu.Unlock()
			var rest []chan struct{}
			for _, x := range s.currentSubs() {
				if x != c {
					rest = append(rest, x)
				}
			}
			s.setSubsLocked(rest)
		})
	}
}

// currentSubs returns the subscriber list; callers must not modify it.
func (s *Store) currentSubs() []chan struct{} {
	if p := s.subs.Load(); p != nil {
		return *p
	}
	return nil
}

// setSubsLocked publishes a new subscriber list, never modified afterwards.
// s.subMu is held.
func (s *Store) setSubsLocked(subs []chan struct{}) { s.subs.Store(&subs) }

// notify signals every subscriber without blocking.
func (s *Store) notify() {
	for _, c := range s.currentSubs() {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}
