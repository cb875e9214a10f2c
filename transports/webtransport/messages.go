package webtransport

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// MCP-Flow methods (seed 000 §4.3, §6, §7), as proto names them.
const (
	MethodCancel      = flow.MethodFlowCancel
	MethodStreamError = flow.MethodFlowStreamError
	MethodShutdown    = flow.MethodFlowShutdown
)

// Values of the transport object in initialize, as proto names them.
const (
	TransportType    = flow.FlowTransportType
	TransportVersion = flow.FlowTransportVersion
	ContentStreamRef = flow.ContentStreamRef
)

// The MCP-Flow messages this transport sends and reads (defined in proto).
type (
	// TransportOffer is params.transport of the initialize request, which
	// the engine puts there (client.Traits.Encodings).
	TransportOffer = flow.FlowTransportOffer
	// CancelParams are the params of $/cancel.
	CancelParams = flow.FlowCancelParams
	// StreamErrorParams are the params of $/streamError.
	StreamErrorParams = flow.FlowStreamErrorParams
	// StreamRef is a result content item that refers to an execution stream.
	StreamRef = flow.StreamRef
)

// Negotiation is result.transport of the initialize response: what the
// server chose and how it limits the session (see flow.Negotiation).
type Negotiation = flow.Negotiation

// FlowRequestID returns the MCP-Flow form of a JSON-RPC id (see flow.FlowRequestID).
func FlowRequestID(id jsonrpc.ID) (uint32, bool) { return flow.FlowRequestID(id) }

// streamRefs returns the ref/stream items of a result's content (see
// flow.StreamRefs).
func streamRefs(result json.RawMessage) []StreamRef { return flow.StreamRefs(result) }
