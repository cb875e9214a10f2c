package capture

// StreamMarker is a Sink that also takes the marks a transport gives an
// execution stream as it learns how the stream ends, and the size the peer
// announced for it. The Store is one; a Tee forwards marks to every sink
// it holds that is one.
type StreamMarker interface {
	// MarkStream records a stream's state: done on FIN, error with its
	// error, reset when either side reset it.
	MarkStream(key StreamKey, state StreamState, err error)
	// SetStreamSize records the payload size the peer announced.
	SetStreamSize(key StreamKey, size int64)
}

var (
	_ StreamMarker = (*Store)(nil)
	_ StreamMarker = tee(nil)
)

// MarkStream forwards the mark to every sink of the tee that takes marks.
func (t tee) MarkStream(key StreamKey, state StreamState, err error) {
	for _, k := range t {
		if m, ok := k.(StreamMarker); ok {
			m.MarkStream(key, state, err)
		}
	}
}

// SetStreamSize forwards the size to every sink of the tee that takes marks.
func (t tee) SetStreamSize(key StreamKey, size int64) {
	for _, k := range t {
		if m, ok := k.(StreamMarker); ok {
			m.SetStreamSize(key, size)
		}
	}
}

// StreamLabeler is a Sink that also takes a stream's label: what the
// stream is in the words of its own protocol (a gateway stream's method,
// name and MIME type, its GUID and who opened it). The Store is one; a
// Tee forwards labels to every sink it holds that is one.
type StreamLabeler interface {
	LabelStream(key StreamKey, label StreamLabel)
}

var (
	_ StreamLabeler = (*Store)(nil)
	_ StreamLabeler = tee(nil)
)

// LabelStream forwards the label to every sink of the tee that takes labels.
func (t tee) LabelStream(key StreamKey, label StreamLabel) {
	for _, k := range t {
		if l, ok := k.(StreamLabeler); ok {
			l.LabelStream(key, label)
		}
	}
}
