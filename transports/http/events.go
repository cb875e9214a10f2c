package mcphttp

import (
	"io"

	"github.com/mcpscope/mcpscope/internal/app/sse"
)

// maxEventRaw bounds the bytes of one event kept for its frame; the store
// keeps a head of larger units anyway.
const maxEventRaw = 1 << 20

// eventReader reads the events of one SSE body with the bytes of each.
type eventReader struct {
	rd *sse.Reader
}

// newEventReader reads body with events of at most max bytes, each kept
// by the frame and the messages made of it.
func newEventReader(body io.Reader, max int) *eventReader {
	rd := sse.NewReader(body, sse.Limits{MaxLine: int64(max), MaxEvent: int64(max), MaxRaw: maxEventRaw})
	rd.KeepEvents()
	return &eventReader{rd: rd}
}

// next returns the next event, its bytes (at most maxEventRaw of them;
// ev.Length is the true size) and its data, all the caller's to keep: the
// messages decoded from them outlive the next read. A large event is not
// copied: its frame and its messages keep the buffer it was read into.
func (r *eventReader) next() (ev sse.Event, raw, data []byte, err error) {
	ev, err = r.rd.Next()
	if err != nil {
		return ev, nil, nil, err
	}
	return ev, ev.Raw, ev.DataBytes, nil
}
