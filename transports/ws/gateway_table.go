package ws

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// maxGatewayStreams bounds the streams a connection remembers; past it,
// the oldest ended one is forgotten (a chunk for it then reads as one for
// an unknown stream).
const maxGatewayStreams = 1024

// StreamEvent is one message of a gateway stream (seed 003), as the
// transport read it from the server. Problem, when set, says which check
// the message failed (an index gap, an unknown stream, a chunk after
// done, a GUID in the wrong byte order); the message is still reported.
type StreamEvent struct {
	Type    string            // proto.StreamStart, StreamChunk, StreamDone, StreamError
	ID      proto.GUID        // the stream
	Meta    *proto.StreamMeta // start: what the stream carries; later events: the start's meta
	Index   int64             // chunk: its index
	Data    []byte            // chunk: the payload of a binary chunk, or the JSON value of a text chunk
	Binary  bool              // chunk: it came as a binary frame
	Summary json.RawMessage   // done: the summary, if any
	Err     *proto.Error      // error: the stream's error
	Problem error
}

// gwStream is what a connection knows of one gateway stream.
type gwStream struct {
	key   capture.StreamKey
	dir   capture.Dir // who opened it
	meta  *proto.StreamMeta
	next  int64 // the index the next chunk should carry
	ended bool
	order uint64
}

// gatewayTable is the streams of one connection, both directions, by id.
type gatewayTable struct {
	mu      sync.Mutex
	streams map[proto.GUID]*gwStream
	tags    uint32
	order   uint64
}

// open records a new stream opened in direction dir; a stream id already
// open is a problem and keeps its record.
func (g *gatewayTable) open(conn string, id proto.GUID, dir capture.Dir, meta *proto.StreamMeta) (*gwStream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.streams == nil {
		g.streams = make(map[proto.GUID]*gwStream)
	}
	if s, ok := g.streams[id]; ok && !s.ended {
		return s, fmt.Errorf("a start for stream %s, which is open already", id)
	}
	if len(g.streams) >= maxGatewayStreams {
		g.forgetOldestEndedLocked()
	}
	g.tags++
	g.order++
	s := &gwStream{key: capture.StreamKey{Conn: conn, Tag: g.tags}, dir: dir, meta: meta, order: g.order}
	g.streams[id] = s
	return s, nil
}

// forgetOldestEndedLocked drops the oldest ended stream, if any.
func (g *gatewayTable) forgetOldestEndedLocked() {
	var oldest proto.GUID
	var at uint64
	for id, s := range g.streams {
		if s.ended && (at == 0 || s.order < at) {
			oldest, at = id, s.order
		}
	}
	if at != 0 {
		delete(g.streams, oldest)
	}
}

// chunk checks a chunk of stream id with index: the stream must be known
// and open and the index the next one; the expected index then follows
// the chunk's, so one gap is reported once.
func (g *gatewayTable) chunk(id proto.GUID, index int64) (*gwStream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.streams[id]
	switch {
	case !ok:
		return nil, g.unknownLocked(id, "a chunk")
	case s.ended:
		return s, fmt.Errorf("a chunk (index %d) for stream %s after its done or error", index, id)
	}
	want := s.next
	s.next = index + 1
	if index != want {
		return s, fmt.Errorf("index gap on stream %s: chunk %d where %d was next", id, index, want)
	}
	return s, nil
}

// end marks stream id ended by a done or an error.
func (g *gatewayTable) end(id proto.GUID, what string) (*gwStream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.streams[id]
	switch {
	case !ok:
		return nil, g.unknownLocked(id, "a "+what)
	case s.ended:
		return s, fmt.Errorf("a %s for stream %s, which had ended already", what, id)
	}
	s.ended = true
	return s, nil
}

// unknownLocked is the problem of a message for a stream never started:
// when the id read in RFC byte order names a known stream, the sender got
// the .NET byte order of the binary header wrong, and it says so.
func (g *gatewayTable) unknownLocked(id proto.GUID, what string) error {
	if _, ok := g.streams[id.SwapDotNet()]; ok {
		return fmt.Errorf("%s for unknown stream %s: read in RFC byte order it is stream %s, so the header's GUID is not in .NET byte order", what, id, id.SwapDotNet())
	}
	return fmt.Errorf("%s for unknown stream %s (no start was seen for it)", what, id)
}
