// Package capture holds what mcpscope captured: the Frame, appended once and
// never mutated, and the bounded Store that keeps frames within a count cap and
// a byte budget and tells subscribers when new frames arrive.
package capture

import (
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Dir is the direction of a frame.
type Dir uint8

// Directions.
const (
	Out Dir = iota // client → server
	In             // server → client
)

// String renders the direction as an arrow word.
func (d Dir) String() string {
	if d == Out {
		return "out"
	}
	return "in"
}

// ChannelKind says which channel of a connection a frame travelled on.
type ChannelKind uint8

// Channel kinds.
const (
	Control  ChannelKind = iota // the JSON-RPC control channel (stdio lines, control stream, WebSocket text)
	Stream                      // an MCP-Flow execution stream or a gateway stream
	Datagram                    // an MCP-Flow datagram channel
	Stderr                      // a stdio server's standard error
	HTTP                        // HTTP metadata (status, headers)
	Proxy                       // a proxy's mark: what it did to the traffic (paused, edited, injected, a fault)
)

// Channel identifies where a frame travelled.
type Channel struct {
	Kind  ChannelKind
	ReqID uint32 // Stream, Datagram: the request id from the header
	Tag   uint32 // Stream: the stream tag
	Ch    uint8  // Datagram: the channel byte
}

// String renders the channel for traces: "control", "stream 42/1", "datagram 1 req 42", "stderr".
func (c Channel) String() string {
	switch c.Kind {
	case Stream:
		return fmt.Sprintf("stream %d/%d", c.ReqID, c.Tag)
	case Datagram:
		return fmt.Sprintf("datagram %d req %d", c.Ch, c.ReqID)
	case Stderr:
		return "stderr"
	case HTTP:
		return "http"
	case Proxy:
		return "proxy"
	}
	return "control"
}

// Frame is one captured unit: a message, a stream chunk, a datagram, a stderr
// line. It is appended once to a Store and never mutated afterwards.
type Frame struct {
	Seq    uint64           // store order, set by the Store
	Time   time.Time        // when it was read or written
	Dir    Dir              // Out or In
	Conn   string           // which connection
	Chan   Channel          // where it travelled
	Raw    []byte           // exact wire bytes, framing included; may be truncated (see Kept)
	Kept   int              // bytes of Raw kept when the store capped it
	Size   int              // true size on the wire
	Fields []proto.Field    // annotations of Raw from the framer
	Enc    proto.Encoding   // json, cbor, binary or text
	Msg    *jsonrpc.Message // the decoded JSON-RPC message, when there is one
	Err    error            // decode error; the bytes are still kept
}

// Sink receives frames. The Store is the Sink of a session; tests use their own.
// Append must not block for long: transports call it from their read loops.
type Sink interface {
	Append(f *Frame) uint64
}

// Discard is a Sink that keeps nothing.
var Discard Sink = discard{}

type discard struct{}

func (discard) Append(*Frame) uint64 { return 0 }
