package live

import (
	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// notesTold is what a viewer has been told of the session's execution
// streams and SSE streams beside their frames, so that it is told what
// changed: a stream's label, announced size and end, an SSE stream's
// start and end. (The store holds these as state, not as frames.)
type notesTold struct {
	streams map[capture.StreamKey]streamTold
	sse     map[string]capture.SSEState
}

type streamTold struct {
	state capture.StreamState
	size  int64
	label capture.StreamLabel
}

func newNotesTold() *notesTold {
	return &notesTold{streams: map[capture.StreamKey]streamTold{}, sse: map[string]capture.SSEState{}}
}

// tell writes to w what changed in st's streams since the last call.
func (n *notesTold) tell(w *recordings.Writer, st *capture.Store) {
	streams := st.Streams()
	for _, s := range streams {
		old, seen := n.streams[s.Key]
		if !seen {
			old.size = -1
		}
		if s.Label != old.label && s.Label != (capture.StreamLabel{}) {
			w.LabelStream(s.Key, s.Label)
		}
		if s.Size >= 0 && s.Size != old.size {
			w.SetStreamSize(s.Key, s.Size)
		}
		if s.State != capture.StreamOpen && s.State != old.state {
			w.MarkStream(s.Key, s.State, s.Err)
		}
		n.streams[s.Key] = streamTold{state: s.State, size: s.Size, label: s.Label}
	}
	if len(n.streams) > 2*len(streams)+64 { // the store forgot some: so does n
		keep := make(map[capture.StreamKey]streamTold, len(streams))
		for _, s := range streams {
			keep[s.Key] = n.streams[s.Key]
		}
		n.streams = keep
	}
	sse := st.SSEStreams()
	for _, e := range sse {
		told, seen := n.sse[e.Conn]
		if !seen {
			w.OpenSSE(e.Conn, e.SSEStart)
			told = capture.SSEOpen
		}
		if e.State != capture.SSEOpen && told == capture.SSEOpen {
			w.EndSSE(e.Conn, e.State, e.Why)
		}
		n.sse[e.Conn] = e.State
	}
	if len(n.sse) > 2*len(sse)+64 {
		keep := make(map[string]capture.SSEState, len(sse))
		for _, e := range sse {
			keep[e.Conn] = n.sse[e.Conn]
		}
		n.sse = keep
	}
}
