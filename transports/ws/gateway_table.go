package ws

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// maxGatewayStreams bounds the streams a connection remembers; past it,
// the oldest ended one is forgotten, else the oldest of all (a chunk for it
// then reads as one for an unknown stream).
const maxGatewayStreams = 1024

// StreamEvent is one message of a gateway stream (seed 003), as the
// transport read it from the server. Problem, when set, says which check
// the message failed (an index gap, an unknown stream, a chunk after
// done, a GUID in the wrong byte order); the message is still reported.
type StreamEvent struct {
	Type    string              // gateway.StreamStart, StreamChunk, StreamDone, StreamError
	ID      gateway.GUID        // the stream
	Meta    *gateway.StreamMeta // start: what the stream carries; later events: the start's meta
	Index   int64               // chunk: its index
	Data    []byte              // chunk: the payload of a binary chunk, or the JSON value of a text chunk
	Binary  bool                // chunk: it came as a binary frame
	Summary json.RawMessage     // done: the summary, if any
	Err     *jsonrpc.Error      // error: the stream's error
	Problem error

	release *release // a binary chunk the capture kept nothing of: its buffer, for Release
}

// gwStream is what a connection knows of one gateway stream: its opener's
// side (dir) and, since a peer may answer on the stream it was sent (an
// echo, a done with what it received), the other side's.
type gwStream struct {
	key   capture.StreamKey
	dir   capture.Dir // who opened it
	meta  *gateway.StreamMeta
	sides [2]side // by capture.Dir
	order uint64
	// size is the totalSize of the start until the opener's first chunk
	// hands it to the capture; -1 without one, or once handed.
	size int64
}

// side is one direction of a stream.
type side struct {
	next  int64 // the index the next chunk should carry
	ended bool
}

// gatewayTable is the streams of one connection, both directions, by id.
type gatewayTable struct {
	mu      sync.Mutex
	streams map[gateway.GUID]*gwStream
	tags    uint32
	order   uint64
}

// open records a new stream opened in direction dir; a stream id already
// open is a problem and keeps its record.
func (g *gatewayTable) open(conn string, id gateway.GUID, dir capture.Dir, meta *gateway.StreamMeta) (*gwStream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.streams == nil {
		g.streams = make(map[gateway.GUID]*gwStream)
	}
	if s, ok := g.streams[id]; ok && !s.sides[s.dir].ended {
		return s, fmt.Errorf("a start for stream %s, which is open already", id)
	}
	if len(g.streams) >= maxGatewayStreams {
		g.forgetLocked()
	}
	g.tags++
	g.order++
	s := &gwStream{key: capture.StreamKey{Conn: conn, Tag: g.tags}, dir: dir, meta: meta, order: g.order, size: -1}
	if meta.TotalSize != nil {
		s.size = *meta.TotalSize
	}
	g.streams[id] = s
	return s, nil
}

// forgetLocked drops the oldest ended stream, or else the oldest of all.
func (g *gatewayTable) forgetLocked() {
	var oldest, oldestEnded gateway.GUID
	var at, atEnded uint64
	for id, s := range g.streams {
		if at == 0 || s.order < at {
			oldest, at = id, s.order
		}
		if s.sides[s.dir].ended && (atEnded == 0 || s.order < atEnded) {
			oldestEnded, atEnded = id, s.order
		}
	}
	if atEnded != 0 {
		oldest = oldestEnded
	}
	delete(g.streams, oldest)
}

// chunk checks a chunk going dir on stream id with index: the stream
// must be known and that side open, and the index the next one; the
// expected index then follows the chunk's, so one gap is reported once.
// With the opener's first chunk it also returns the size the start
// announced, once; otherwise -1.
func (g *gatewayTable) chunk(id gateway.GUID, dir capture.Dir, index int64) (s *gwStream, size int64, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.streams[id]
	if !ok {
		return nil, -1, g.unknownLocked(id, "a chunk")
	}
	size = -1
	if dir == s.dir {
		size, s.size = s.size, -1
	}
	sd := &s.sides[dir]
	if sd.ended {
		return s, size, fmt.Errorf("a chunk (index %d) for stream %s after its done or error", index, id)
	}
	want := sd.next
	sd.next = index + 1
	if index != want {
		return s, size, &gateway.IndexGapError{Stream: id, Index: index, Next: want}
	}
	return s, size, nil
}

// end marks the dir side of stream id ended by a done or an error.
func (g *gatewayTable) end(id gateway.GUID, dir capture.Dir, what string) (*gwStream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.streams[id]
	switch {
	case !ok:
		return nil, g.unknownLocked(id, "a "+what)
	case s.sides[dir].ended:
		return s, fmt.Errorf("a %s for stream %s, which had ended already", what, id)
	}
	s.sides[dir].ended = true
	return s, nil
}

// unknownLocked is the problem of a message for a stream never started:
// when the id read in RFC byte order names a known stream, the sender got
// the .NET byte order of the binary header wrong, and it says so.
func (g *gatewayTable) unknownLocked(id gateway.GUID, what string) error {
	if _, ok := g.streams[id.SwapDotNet()]; ok {
		return fmt.Errorf("%s for unknown stream %s: read in RFC byte order it is stream %s, so the header's GUID is not in .NET byte order", what, id, id.SwapDotNet())
	}
	return fmt.Errorf("%s for unknown stream %s (no start was seen for it)", what, id)
}
