package capture

import "time"

// Default bounds of a Store, used for every Config field left at zero.
const (
	DefaultMaxFrames  = 1_000_000
	DefaultMaxBytes   = 256 << 20
	DefaultStreamHead = 64 << 10
	DefaultStreamTail = 64 << 10
	DefaultMaxStreams = 256
	// DefaultMaxSSEStreams is how many SSE streams a Store remembers.
	DefaultMaxSSEStreams = 256
)

// maxHeadFrames bounds how many chunks of one stream are held as Frames: the
// chunks that carry the stream's head, but never more than this many, so a
// stream of one-byte chunks cannot fill the ring.
const maxHeadFrames = 64

// Config bounds a Store. A field at zero or below takes its default.
//
// The memory a Store holds is at most about
//
//	MaxBytes + MaxFrames × 8 B (the ring) + MaxStreams × (StreamHead + StreamTail)
//
// plus about 1.8 KiB for each of MaxSSEStreams SSE streams,
// whatever is ingested (MemoryBound): MaxBytes counts what each held frame
// really costs, its metadata included (about 500 B for a small message:
// the Frame, its annotations, the decoded Msg, a slot in the ring and in a
// reader's index), not only its bytes.
type Config struct {
	// MaxFrames is how many frames are held; the oldest is evicted first.
	MaxFrames int
	// MaxBytes is the budget of held frames: Raw, the decoded params,
	// result and error data of Msg (once: a value that is a slice of Raw
	// is Raw's bytes), and their metadata (Stats.MetaBytes).
	// Over budget, while the frames' bytes cost more than their metadata
	// the oldest frames lose their bytes and keep their metadata (Kept
	// becomes 0); after that the oldest frames are evicted.
	MaxBytes int64
	// StreamHead and StreamTail are how many payload bytes of each execution
	// stream are kept from its start and from its end.
	StreamHead, StreamTail int
	// MaxStreams is how many streams keep their head, tail and totals; the
	// least recently active finished stream is forgotten first.
	MaxStreams int
	// MaxSSEStreams is how many SSE streams of an HTTP session are
	// remembered (SSEStreams); the oldest finished one is forgotten first.
	MaxSSEStreams int
	// FrameHead is how many bytes of Raw one frame keeps at most; a larger
	// frame keeps its first FrameHead bytes and Size keeps the true size.
	// Default MaxBytes/4; never more than MaxBytes.
	FrameHead int
	// Clock, when set, is what the store reads for the time of a mark
	// (a stream's end, an SSE stream's events); a replay sets it to the
	// recorded time. Default time.Now.
	Clock func() time.Time
}

// DefaultConfig returns the default bounds: 1,000,000 frames, 256 MiB for
// the held frames, metadata included (64 MiB at most of bytes per frame),
// 64 KiB head and 64 KiB tail for each of at most 256 streams: a
// MemoryBound of about 300 MiB.
func DefaultConfig() Config {
	return Config{}.withDefaults()
}

// MemoryBound is about the most memory a Store with these bounds holds,
// whatever is ingested: MaxBytes, the ring of MaxFrames pointers and the
// head and tail of MaxStreams streams. Defaults apply to fields at zero.
func (c Config) MemoryBound() int64 {
	c = c.withDefaults()
	return c.MaxBytes + int64(c.MaxFrames)*ringSlot + int64(c.MaxStreams)*int64(c.StreamHead+c.StreamTail) +
		int64(c.MaxSSEStreams)*sseRecordCost
}

// ringSlot is what the ring costs per frame it can hold.
const ringSlot = 8

// withDefaults fills every field at zero or below with its default.
func (c Config) withDefaults() Config {
	if c.MaxFrames <= 0 {
		c.MaxFrames = DefaultMaxFrames
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.StreamHead <= 0 {
		c.StreamHead = DefaultStreamHead
	}
	if c.StreamTail <= 0 {
		c.StreamTail = DefaultStreamTail
	}
	if c.MaxStreams <= 0 {
		c.MaxStreams = DefaultMaxStreams
	}
	if c.MaxSSEStreams <= 0 {
		c.MaxSSEStreams = DefaultMaxSSEStreams
	}
	if c.Clock == nil {
		c.Clock = time.Now
	}
	if c.FrameHead <= 0 {
		c.FrameHead = int(min(c.MaxBytes/4, int64(^uint(0)>>1)))
	}
	if int64(c.FrameHead) > c.MaxBytes {
		c.FrameHead = int(c.MaxBytes)
	}
	if c.FrameHead == 0 {
		c.FrameHead = 1
	}
	return c
}
