package webtransport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpscope/mcpscope/proto"
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
	// TransportOffer is params.transport of the initialize request.
	TransportOffer = flow.FlowTransportOffer
	// CancelParams are the params of $/cancel.
	CancelParams = flow.FlowCancelParams
	// StreamErrorParams are the params of $/streamError.
	StreamErrorParams = flow.FlowStreamErrorParams
	// StreamRef is a result content item that refers to an execution stream.
	StreamRef = flow.StreamRef
)

// Negotiation is result.transport of the initialize response: what the
// server chose and how it limits the session.
type Negotiation struct {
	flow.FlowTransport
	// Declared is false when the result carried no transport object (the
	// session then stays JSON).
	Declared bool `json:"-"`
}

// FlowRequestID returns the MCP-Flow form of a JSON-RPC id (see flow.FlowRequestID).
func FlowRequestID(id jsonrpc.ID) (uint32, bool) { return flow.FlowRequestID(id) }

// withTransportOffer returns initialize params with params.transport set to
// offer. Params that already hold a transport member are returned as they
// are (a hand-made initialize keeps its own offer).
func withTransportOffer(params json.RawMessage, offer TransportOffer) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(params)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &members); err != nil || members == nil {
		return nil, errors.New("initialize params must be a JSON object to carry the MCP-Flow transport offer")
	}
	if _, ok := members["transport"]; ok {
		return params, nil
	}
	o, err := json.Marshal(offer)
	if err != nil {
		return nil, fmt.Errorf("encoding the transport offer: %w", err)
	}
	out := make([]byte, 0, len(trimmed)+len(o)+16)
	out = append(out, trimmed[:len(trimmed)-1]...) // without the closing brace
	if len(members) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"transport":`...)
	out = append(out, o...)
	return append(out, '}'), nil
}

// offeredEncodings reads params.transport.encodings of an initialize
// request; without a transport object or list, the server assumes json.
func offeredEncodings(params json.RawMessage) []string {
	var p struct {
		Transport *TransportOffer `json:"transport"`
	}
	if json.Unmarshal(params, &p) != nil || p.Transport == nil || len(p.Transport.Encodings) == 0 {
		return []string{"json"}
	}
	return p.Transport.Encodings
}

// parseNegotiation reads result.transport of the initialize result. A
// result without it, or without an encoding, means json. An encoding that
// was not offered is an error.
func parseNegotiation(result json.RawMessage, offered []string) (Negotiation, proto.Encoding, error) {
	var r struct {
		Transport *Negotiation `json:"transport"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return Negotiation{}, proto.EncJSON, fmt.Errorf("the initialize result's transport object is malformed: %w", err)
	}
	n := Negotiation{FlowTransport: flow.FlowTransport{Encoding: "json"}}
	if r.Transport != nil {
		n = *r.Transport
		n.Declared = true
		if n.Encoding == "" {
			n.Encoding = "json"
		}
	}
	enc, ok := encodingByName(n.Encoding)
	if !ok || !slices.Contains(offered, n.Encoding) {
		return n, proto.EncJSON, fmt.Errorf("the server chose the encoding %q, which the client did not offer (it offered %v)", n.Encoding, offered)
	}
	return n, enc, nil
}

// streamRefs returns the ref/stream items of a result's content.
func streamRefs(result json.RawMessage) []StreamRef {
	if !bytes.Contains(result, []byte(ContentStreamRef)) {
		return nil
	}
	var r struct {
		Content []json.RawMessage `json:"content"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	var refs []StreamRef
	for _, item := range r.Content {
		var ref StreamRef
		if json.Unmarshal(item, &ref) == nil && ref.Type == ContentStreamRef {
			refs = append(refs, ref)
		}
	}
	return refs
}
