package flow

import (
	"encoding/binary"

	"github.com/mcpscope/mcpscope/proto"
)

// ExecStreamHeaderLen is the size of the header that opens an MCP-Flow
// execution stream.
const ExecStreamHeaderLen = 8

// ExecStreamHeader opens an MCP-Flow execution stream (seed 000 §2.2): the
// request id the stream belongs to and the stream tag that the tools/call
// result refers to, both u32 big-endian. The payload follows until FIN.
type ExecStreamHeader struct {
	RequestID uint32
	StreamTag uint32
}

// Append appends the 8 header bytes.
func (h ExecStreamHeader) Append(dst []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, h.RequestID)
	return binary.BigEndian.AppendUint32(dst, h.StreamTag)
}

// Fields annotates the header: "request id" and "stream tag".
func (h ExecStreamHeader) Fields() []proto.Field {
	return []proto.Field{
		proto.UintField(0, 4, "request id", uint64(h.RequestID)),
		proto.UintField(4, 4, "stream tag", uint64(h.StreamTag)),
	}
}

// ParseExecStreamHeader decodes the header at the start of b and returns the
// payload bytes after it, with annotations of both. A b shorter than the
// header is an error wrapping io.ErrUnexpectedEOF.
func ParseExecStreamHeader(b []byte) (h ExecStreamHeader, payload []byte, fields []proto.Field, err error) {
	head, payload, err := proto.SplitHeader(b, ExecStreamHeaderLen, "execution stream")
	if err != nil {
		return h, nil, nil, err
	}
	h = ExecStreamHeader{RequestID: binary.BigEndian.Uint32(head), StreamTag: binary.BigEndian.Uint32(head[4:])}
	return h, payload, proto.PayloadField(h.Fields(), ExecStreamHeaderLen, len(payload)), nil
}
