package gateway

import (
	"encoding/binary"
	"strconv"

	"github.com/mcpscope/mcpscope/proto"
)

// GatewayChunkHeaderLen is the size of the header of a gateway binary chunk.
const GatewayChunkHeaderLen = 24

// GatewayChunkHeader opens a binary chunk frame of the gateway's WebSocket
// streaming (seed 003 §3.2, DESIGN §3.4): the stream id as a GUID in .NET
// byte order (16 bytes), then the chunk index as an int64 little-endian
// (8 bytes). The payload is the rest of the WebSocket message.
type GatewayChunkHeader struct {
	StreamID GUID
	Index    int64
}

// Append appends the 24 header bytes.
func (h GatewayChunkHeader) Append(dst []byte) []byte {
	dst = h.StreamID.appendDotNet(dst)
	return binary.LittleEndian.AppendUint64(dst, uint64(h.Index))
}

// Fields annotates the header: "stream id (GUID, .NET order)" and "index".
func (h GatewayChunkHeader) Fields() []proto.Field {
	return []proto.Field{
		{Offset: 0, Len: 16, Name: "stream id (GUID, .NET order)", Value: h.StreamID.String(), Kind: proto.FieldHeader},
		{Offset: 16, Len: 8, Name: "index", Value: strconv.FormatInt(h.Index, 10), Kind: proto.FieldHeader},
	}
}

// ParseGatewayChunkHeader decodes the header at the start of a binary chunk
// frame and returns the payload after it, with annotations of the header
// fields and the "payload". A frame shorter than the header is an error
// wrapping io.ErrUnexpectedEOF; any index, negative included, is accepted.
func ParseGatewayChunkHeader(b []byte) (h GatewayChunkHeader, payload []byte, fields []proto.Field, err error) {
	head, payload, err := proto.SplitHeader(b, GatewayChunkHeaderLen, "gateway chunk")
	if err != nil {
		return h, nil, nil, err
	}
	h = GatewayChunkHeader{StreamID: guidFromDotNet(head), Index: int64(binary.LittleEndian.Uint64(head[16:]))}
	return h, payload, proto.PayloadField(h.Fields(), GatewayChunkHeaderLen, len(payload)), nil
}
