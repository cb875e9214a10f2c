package recordings

import (
	"time"

	"github.com/mcpscope/mcpscope/capture"
)

// RecordKind says what a Record holds.
type RecordKind uint8

// Record kinds.
const (
	RecFrame    RecordKind = iota // a captured frame
	RecMark                       // a stream's state
	RecLabel                      // a stream's label
	RecSize                       // the size announced for a stream
	RecRest                       // totals (and maybe the tail) of a stream past its cap
	RecSSEOpen                    // an SSE stream's body started
	RecSSEEvent                   // an SSE stream's event
	RecSSEEnd                     // an SSE stream ended
	RecLink                       // the transport and era, once known
	RecEnd                        // the session closed cleanly
)

// Record is one line of a recording after its header.
type Record struct {
	Kind RecordKind
	Time time.Time

	// RecFrame: the frame as captured (Seq is 0: a Store sets it), and
	// its Seq in the live session's store.
	Frame   *capture.Frame
	LiveSeq uint64

	// RecMark, RecLabel, RecSize, RecRest: the stream.
	Key   capture.StreamKey
	State capture.StreamState // RecMark
	Err   string              // RecMark: the error given with the mark
	Label capture.StreamLabel // RecLabel
	Size  int64               // RecSize: announced size; RecRest: payload bytes; RecSSEEvent: event size
	// RecRest: chunks counted past the cap, and the stream's last bytes
	// (only on the stream's last RecRest).
	Chunks int64
	Tail   []byte

	// RecSSEOpen, RecSSEEvent, RecSSEEnd: the connection of the exchange.
	Conn     string
	SSE      capture.SSEStart // RecSSEOpen
	SSEState capture.SSEState // RecSSEEnd
	Why      string           // RecSSEEnd
	LastID   string           // RecSSEEvent
	// LiveSeq (RecSSEEvent): the live Seq of the event's frame.

	// RecLink
	Transport, Era, Protocol string
}
