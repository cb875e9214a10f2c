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

// newEventReader reads body with events of at most max bytes.
func newEventReader(body io.Reader, max int) *eventReader {
	return &eventReader{rd: sse.NewReader(body, sse.Limits{MaxLine: int64(max), MaxEvent: int64(max), MaxRaw: maxEventRaw})}
}

// next returns the next event, with its data copied (the messages decoded
// from it outlive the next read), and a copy of its bytes (at most
// maxEventRaw of them; ev.Length is the true size). Data that lies in the
// event's bytes is copied once, with them.
func (r *eventReader) next() (ev sse.Event, raw, data []byte, err error) {
	ev, err = r.rd.Next()
	if err != nil {
		return ev, nil, nil, err
	}
	kept := ev.Clone()
	return ev, kept.Raw, kept.DataBytes, nil
}
