package capture

// Tap is a Sink that also takes the notes a transport makes beside its
// frames, as it learns them: how an execution stream ended, the size its
// peer announced, what a stream is, and the lifecycle of an SSE stream. The
// Store, a recording and a Tee of them are Taps; a wrapper of one forwards
// Append and Note.
type Tap interface {
	Sink
	// Note takes one note; it must not block for long, as Append.
	Note(e Event)
}

// Event is a note a transport makes beside its frames: one of
// StreamMarked, StreamSized, StreamLabelled, SSEOpened, SSEEventSeen and
// SSEEnded.
type Event interface {
	// onConn returns the note with suffix added to every connection name
	// it holds.
	onConn(suffix string) Event
}

// StreamMarked says how a stream ended as the transport learned it: done
// on FIN, error with its error, reset when either side reset it.
type StreamMarked struct {
	Key   StreamKey
	State StreamState
	Err   error
}

// StreamSized says the payload size the peer announced for a stream.
type StreamSized struct {
	Key  StreamKey
	Size int64
}

// StreamLabelled says what a stream is in the words of its own protocol
// (a gateway stream's method, name and MIME type, its GUID and who opened
// it).
type StreamLabelled struct {
	Key   StreamKey
	Label StreamLabel
}

// SSEOpened says the SSE body of connection Conn started.
type SSEOpened struct {
	Conn  string
	Start SSEStart
}

// SSEEventSeen counts one event of Size bytes on Conn, held as the frame
// Seq (0 when not held), after which the last event id is LastID.
type SSEEventSeen struct {
	Conn   string
	Seq    uint64
	Size   int64
	LastID string
}

// SSEEnded says the SSE stream of Conn ended in State, Why saying what
// broke or cancelled it.
type SSEEnded struct {
	Conn  string
	State SSEState
	Why   string
}

func (e StreamMarked) onConn(s string) Event   { e.Key.Conn += s; return e }
func (e StreamSized) onConn(s string) Event    { e.Key.Conn += s; return e }
func (e StreamLabelled) onConn(s string) Event { e.Key.Conn += s; return e }
func (e SSEEventSeen) onConn(s string) Event   { e.Conn += s; return e }
func (e SSEEnded) onConn(s string) Event       { e.Conn += s; return e }

func (e SSEOpened) onConn(s string) Event {
	e.Conn += s
	if e.Start.Of != "" {
		e.Start.Of += s
	}
	return e
}

// Note hands e to s when s is a Tap; a Sink that only takes frames
// ignores it.
func Note(s Sink, e Event) {
	if t, ok := s.(Tap); ok {
		t.Note(e)
	}
}

var (
	_ Tap = (*Store)(nil)
	_ Tap = tee(nil)
)

// EventTaker takes each kind of Event by a method of its own; the Store
// and a recording keep what a note says this way (Dispatch).
type EventTaker interface {
	MarkStream(key StreamKey, state StreamState, err error)
	SetStreamSize(key StreamKey, size int64)
	LabelStream(key StreamKey, label StreamLabel)
	OpenSSE(conn string, start SSEStart)
	SSEEvent(conn string, seq uint64, size int64, lastID string)
	EndSSE(conn string, state SSEState, why string)
}

// Dispatch hands e to the method of t that takes its kind.
func Dispatch(t EventTaker, e Event) {
	switch e := e.(type) {
	case StreamMarked:
		t.MarkStream(e.Key, e.State, e.Err)
	case StreamSized:
		t.SetStreamSize(e.Key, e.Size)
	case StreamLabelled:
		t.LabelStream(e.Key, e.Label)
	case SSEOpened:
		t.OpenSSE(e.Conn, e.Start)
	case SSEEventSeen:
		t.SSEEvent(e.Conn, e.Seq, e.Size, e.LastID)
	case SSEEnded:
		t.EndSSE(e.Conn, e.State, e.Why)
	}
}

// Note applies e to the store's streams.
func (s *Store) Note(e Event) { Dispatch(s, e) }

// Note forwards e to every sink of the tee that is a Tap.
func (t tee) Note(e Event) {
	for _, k := range t {
		Note(k, e)
	}
}
