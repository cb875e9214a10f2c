package mcphttp

import (
	"io"

	"github.com/mcpscope/mcpscope/internal/app/sse"
)

// maxEventRaw bounds the bytes of one event kept for its frame; the store
// keeps a head of larger units anyway.
const maxEventRaw = 1 << 20

// newEventReader reads body with events of at most max bytes, each the
// caller's to keep (sse.Reader.KeepEvents): the frame and the messages
// decoded from an event outlive the next read. A large event is not
// copied: its frame and its messages keep the buffer it was read into.
// An event's Raw holds at most maxEventRaw bytes; its Length is its true
// size.
func newEventReader(body io.Reader, max int) *sse.Reader {
	rd := sse.NewReader(body, sse.Limits{MaxLine: int64(max), MaxEvent: int64(max), MaxRaw: maxEventRaw})
	rd.KeepEvents()
	return rd
}
