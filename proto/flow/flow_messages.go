package flow

import (
	"math"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// MCP-Flow control methods (seed 000 §4.3, §6, §7).
const (
	MethodFlowCancel      = "$/cancel"      // client → server: abort a request
	MethodFlowStreamError = "$/streamError" // server → client: a stream failed mid-transfer
	MethodFlowShutdown    = "$/shutdown"    // either side: stop opening streams, drain, close
)

// Values of the MCP-Flow transport object in initialize.
const (
	FlowTransportType    = "mcp-flow"
	FlowTransportVersion = "0.1"
	// ContentStreamRef is the content type of a result item that refers to
	// an execution stream.
	ContentStreamRef = "ref/stream"
)

// FlowTransportOffer is params.transport of an MCP-Flow initialize request.
type FlowTransportOffer struct {
	Type      string   `json:"type"`
	Version   string   `json:"version"`
	Encodings []string `json:"encodings,omitempty"` // preference order; omitted → json
}

// FlowTransport is result.transport of an MCP-Flow initialize result: the
// encoding the server chose and how it limits the session.
type FlowTransport struct {
	Type                 string `json:"type"`
	Version              string `json:"version"`
	Encoding             string `json:"encoding"` // "cbor" or "json"
	MaxConcurrentStreams int    `json:"maxConcurrentStreams"`
	DatagramsSupported   bool   `json:"datagramsSupported"`
	MaxFrameSize         int    `json:"maxFrameSize"`
}

// FlowCancelParams are the params of $/cancel.
type FlowCancelParams struct {
	RequestID uint32 `json:"requestId"`
	Reason    string `json:"reason,omitempty"`
}

// FlowStreamErrorParams are the params of $/streamError.
type FlowStreamErrorParams struct {
	RequestID uint32 `json:"requestId"`
	StreamTag uint32 `json:"streamTag"`
	Error     string `json:"error"`
}

// StreamRef is a content item of a tools/call result that refers to an
// execution stream of the same request:
// {"type":"ref/stream","streamTag":T,"mimeType":…,"size":N}.
type StreamRef struct {
	Type      string `json:"type"` // ContentStreamRef
	StreamTag uint32 `json:"streamTag"`
	MimeType  string `json:"mimeType,omitempty"`
	Size      *int64 `json:"size,omitempty"`
}

// NewStreamRef returns the ref/stream item of a stream of size bytes.
func NewStreamRef(tag uint32, mimeType string, size int64) StreamRef {
	return StreamRef{Type: ContentStreamRef, StreamTag: tag, MimeType: mimeType, Size: &size}
}

// FlowRequestID returns the MCP-Flow form of a JSON-RPC id: an integer in
// [0, 2^32). Other ids cannot appear in stream or datagram headers.
func FlowRequestID(id jsonrpc.ID) (uint32, bool) {
	n, ok := id.Int()
	if !ok || n < 0 || n > math.MaxUint32 {
		return 0, false
	}
	return uint32(n), true
}
