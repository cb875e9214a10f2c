package demo

import (
	"bytes"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// DecodeClientMessage decodes one JSON-RPC message a client sent as one
// unit of its transport (unit names it: "line", "text message"). It
// returns the message, or the error response that refuses it: -32600 for
// a batch or an invalid message that has an id, -32700 (id null) for the
// rest. err is why it was refused, for the transport's diagnostics.
func DecodeClientMessage(b []byte, unit string) (m, refusal *jsonrpc.Message, err error) {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		return nil, jsonrpc.NewErrorResponse(jsonrpc.ID{}, mcp.CodeInvalidRequest,
			"JSON-RPC batches are not supported; send one message per "+unit, nil), nil
	}
	m, err = jsonrpc.DecodeMessage(b)
	switch {
	case err != nil && m != nil && m.ID != nil:
		return nil, jsonrpc.NewErrorResponse(*m.ID, mcp.CodeInvalidRequest, err.Error(), nil), err
	case err != nil:
		return nil, jsonrpc.NewErrorResponse(jsonrpc.ID{}, mcp.CodeParseError, err.Error(), nil), err
	}
	return m, nil, nil
}
