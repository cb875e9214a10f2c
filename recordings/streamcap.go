package recordings

import (
	"time"

	"github.com/mcpscope/mcpscope/capture"
)

// streamCap is what a Writer tracks of one stream: how much of its payload
// was written whole and, past StreamMax, the totals and tail not yet
// written.
type streamCap struct {
	kept   int64             // payload bytes written whole
	chunks int64             // chunks past the cap since the last stream_rest line
	bytes  int64             // their payload bytes
	last   time.Time         // the time of the latest of them
	tail   *capture.TailRing // the stream's last bytes past the cap
	capped bool
	tailed bool // it was given a tail (counted in streamCaps.tails)
}

// keepTail adds p to the tail, when the stream has one.
func (c *streamCap) keepTail(p []byte) {
	if c.tail != nil {
		_, _ = c.tail.Write(p)
	}
}

// lastBytes returns the tail, at most tailLimit bytes.
func (c *streamCap) lastBytes() []byte {
	if c.tail == nil {
		return nil
	}
	return c.tail.Bytes()
}

// streamCaps holds the streamCap of each stream a Writer is recording.
type streamCaps struct {
	max   int64
	recs  map[capture.StreamKey]*streamCap
	tails int // capped streams holding a tail now
}

// capStream marks r past its cap and gives it a tail while fewer than
// maxTails streams have one.
func (c *streamCaps) capStream(r *streamCap) {
	r.kept, r.capped = c.max, true
	if c.tails < maxTails {
		r.tail, r.tailed = capture.NewTailRing(tailLimit), true
		c.tails++
	}
}

// payloadLen returns how many payload bytes a stream frame carries.
func payloadLen(f *capture.Frame) (n int64) {
	capture.ForEachPayload(f, func(p []byte) { n += int64(len(p)) })
	return n
}

// past reports whether stream frame f comes after its stream's cap, in
// which case it is only counted, never written.
func (c *streamCaps) past(f *capture.Frame) bool {
	r := c.recs[capture.StreamKeyOf(f)]
	if r == nil || !r.capped && r.kept < c.max {
		return false
	}
	if !r.capped {
		c.capStream(r)
	}
	var n int64
	capture.ForEachPayload(f, func(p []byte) {
		r.keepTail(p)
		n += int64(len(p))
	})
	if f.Size > len(f.Raw) {
		n += int64(f.Size - len(f.Raw))
	}
	r.chunks++
	r.bytes += n
	r.last = f.Time
	return true
}

// cut returns how many of f's bytes to write: all of them, except for the
// stream chunk that crosses its stream's cap, which keeps the part within
// it (its payload being the end of its bytes); the rest of its payload
// starts the tail.
func (c *streamCaps) cut(w *Writer, f *capture.Frame) int {
	if f.Chan.Kind != capture.Stream {
		return len(f.Raw)
	}
	key := capture.StreamKeyOf(f)
	r := c.recs[key]
	if r == nil {
		c.roomForOne(w)
		r = &streamCap{}
		c.recs[key] = r
	}
	n := payloadLen(f)
	if r.kept+n <= c.max {
		r.kept += n
		return len(f.Raw)
	}
	over := int(min(r.kept+n-c.max, int64(len(f.Raw))))
	c.capStream(r)
	keep := len(f.Raw) - over
	r.keepTail(f.Raw[keep:])
	r.last = f.Time
	return keep
}

// maxStreamCaps bounds the streams a Writer follows; maxTails bounds how
// many of them keep a tail past their cap (each up to tailLimit).
const (
	maxStreamCaps = 4096
	maxTails      = 64
)

// roomForOne makes room for one more stream: past maxStreamCaps, one is
// forgotten, a stream still under its cap first (were it to grow past the
// cap later, it would be counted afresh), else a capped one, whose totals
// and tail are written first.
func (c *streamCaps) roomForOne(w *Writer) {
	if len(c.recs) < maxStreamCaps {
		return
	}
	for key, r := range c.recs {
		if !r.capped {
			delete(c.recs, key)
			return
		}
	}
	for key := range c.recs {
		c.end(w, key)
		return
	}
}

// report writes a stream_rest line for every capped stream counted since
// the last one; final (Close) adds each one's tail.
func (c *streamCaps) report(w *Writer, final bool) {
	for key, r := range c.recs {
		if r.capped && (r.chunks > 0 || final) {
			c.rest(w, key, r, final)
		}
	}
}

// end writes the totals and tail of a stream that ended, and forgets it.
func (c *streamCaps) end(w *Writer, key capture.StreamKey) {
	if r := c.recs[key]; r != nil {
		if r.capped {
			c.rest(w, key, r, true)
		}
		if r.tailed {
			c.tails--
		}
		delete(c.recs, key)
	}
}

// rest writes one stream_rest line: the chunks and bytes counted since the
// last one and, when withTail, the stream's last bytes.
func (c *streamCaps) rest(w *Writer, key capture.StreamKey, r *streamCap, withTail bool) {
	l := keyLine(kindRest, key)
	l.T, l.Chunks, l.Total = r.last.UnixNano(), r.chunks, r.bytes
	if withTail {
		tail := r.lastBytes()
		if w.red != nil {
			tail = w.red.redact(tail, true)
		}
		setBytes(tail, new(string), &l.Text, &l.B64)
		r.tail = nil
	}
	r.chunks, r.bytes = 0, 0
	w.writeLocked(l)
}
