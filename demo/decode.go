package demo

import (
	"bytes"

	"github.com/mcpscope/mcpscope/proto"
)

// DecodeClientMessage decodes one JSON-RPC message a client sent as one
// unit of its transport (unit names it: "line", "text message"). It
// returns the message, or the error response that refuses it: -32600 for
// a batch or an invalid message that has an id, -32700 (id null) for the
// rest. err is why it was refused, for the transport's diagnostics.
func DecodeClientMessage(b []byte, unit string) (m, refusal *proto.Message, err error) {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		return nil, proto.NewErrorResponse(proto.ID{}, proto.CodeInvalidRequest,
			"JSON-RPC batches are not supported; send one message per "+unit, nil), nil
	}
	m, err = proto.DecodeMessage(b)
	switch {
	case err != nil && m != nil && m.ID != nil:
		return nil, proto.NewErrorResponse(*m.ID, proto.CodeInvalidRequest, err.Error(), nil), err
	case err != nil:
		return nil, proto.NewErrorResponse(proto.ID{}, proto.CodeParseError, err.Error(), nil), err
	}
	return m, nil, nil
}
