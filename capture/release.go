package capture

// Releaser is a Sink that keeps nothing of a frame it returned 0 for once
// Append has returned, so the caller may reuse that frame's bytes (the
// payload chunks of a long execution stream, past the head the Store
// keeps). The Store and Discard are Releasers; a Tee is one when every
// sink it holds is.
type Releaser interface {
	Sink
	// ReleasesUnheld reports whether the sink keeps nothing of a frame
	// it returned 0 for.
	ReleasesUnheld() bool
}

// ReleasesUnheld reports whether s promises, as a Releaser, to keep
// nothing of a frame it returned 0 for. Any other sink may keep any frame.
func ReleasesUnheld(s Sink) bool {
	r, ok := s.(Releaser)
	return ok && r.ReleasesUnheld()
}

// ReleasesUnheld is true: a frame the Store returns 0 for is a stream chunk
// past the head, whose tail bytes the Store copies.
func (s *Store) ReleasesUnheld() bool { return true }

// ReleasesUnheld is true: Discard keeps nothing.
func (discard) ReleasesUnheld() bool { return true }

// ReleasesUnheld is true when every sink of the tee releases what it does
// not hold.
func (t tee) ReleasesUnheld() bool {
	for _, k := range t {
		if !ReleasesUnheld(k) {
			return false
		}
	}
	return true
}
