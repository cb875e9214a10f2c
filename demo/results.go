package demo

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ToolResult is the result of tools/call. Content items are any JSON
// object: a mcp.ContentBlock, or a flow.StreamRef, which ContentBlock cannot
// express.
type ToolResult struct {
	Content           []any `json:"content"`
	StructuredContent any   `json:"structuredContent,omitempty"`
	IsError           bool  `json:"isError,omitempty"`
}

// Text is a text content item.
func Text(s string) mcp.ContentBlock { return mcp.ContentBlock{Type: "text", Text: s} }

// TextResult is a result with one text item.
func TextResult(s string) *ToolResult { return &ToolResult{Content: []any{Text(s)}} }

// StructuredResult is a result whose structuredContent is v, repeated as
// JSON text for clients that only read content.
func StructuredResult(v any) *ToolResult {
	b, err := json.Marshal(v)
	if err != nil {
		return TextResult(fmt.Sprintf("cannot encode the result: %v", err))
	}
	return &ToolResult{Content: []any{Text(string(b))}, StructuredContent: v}
}

// rpcError builds a JSON-RPC error to return from a handler.
func rpcError(code int, data any, format string, a ...any) *jsonrpc.Error {
	e := &jsonrpc.Error{Code: code, Message: fmt.Sprintf(format, a...)}
	if data != nil {
		e.Data, _ = json.Marshal(data)
	}
	return e
}

// invalidParams is a -32602 error with a formatted message.
func invalidParams(format string, a ...any) *jsonrpc.Error {
	return rpcError(mcp.CodeInvalidParams, nil, format, a...)
}
