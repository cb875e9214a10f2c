package mcphttp

import (
	"io"

	"github.com/mcpscope/mcpscope/transports/internal/sse"
)

// maxEventRaw bounds the bytes of one event kept for its frame; the store
// keeps a head of larger units anyway.
const maxEventRaw = 1 << 20

// eventReader reads the events of one SSE body with the bytes of each.
type eventReader struct {
	rd  *sse.Reader
	tee *spanTee
}

// newEventReader reads body with events of at most max bytes.
func newEventReader(body io.Reader, max int) *eventReader {
	tee := &spanTee{r: body}
	return &eventReader{rd: sse.NewReader(tee, sse.Limits{MaxLine: int64(max), MaxEvent: int64(max)}), tee: tee}
}

// next returns the next event, its bytes (a copy, at most maxEventRaw of
// them) and the event's true size.
func (r *eventReader) next() (sse.Event, []byte, error) {
	ev, err := r.rd.Next()
	if err != nil {
		return ev, nil, err
	}
	return ev, r.tee.span(ev.Offset, ev.Length), nil
}

// lastEventID is the stream's last event id.
func (r *eventReader) lastEventID() string { return r.rd.LastEventID() }

// spanTee keeps the bytes read from r that no span has taken yet. The
// SSE reader fails an event past its limit, so they stay within that limit
// plus the reader's read-ahead.
type spanTee struct {
	r    io.Reader
	base int64  // stream offset of buf[0]
	buf  []byte // bytes from base on
}

func (s *spanTee) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.buf = append(s.buf, p[:n]...)
	return n, err
}

// span returns a copy of at most maxEventRaw bytes from [off, off+n) and
// forgets every byte before off+n.
func (s *spanTee) span(off, n int64) []byte {
	lo, hi := off-s.base, off+n-s.base
	lo, hi = max(lo, 0), min(hi, int64(len(s.buf)))
	var out []byte
	if lo < hi {
		out = append([]byte(nil), s.buf[lo:min(hi, lo+maxEventRaw)]...)
	}
	if hi > 0 {
		s.buf = append(s.buf[:0], s.buf[hi:]...)
		s.base += hi
	}
	return out
}
