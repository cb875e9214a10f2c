package mcp

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// TestErrorNamesByContext checks a code is named by the dialect and the
// request it answers: the answer to a cancelled request reads as the
// cancellation, MCP-Flow's stream limit only where a stream may open, and
// no name beside a message that already says it.
func TestErrorNamesByContext(t *testing.T) {
	call := ErrorContext{Method: MethodToolsCall}
	cancelled := ErrorContext{Method: MethodToolsCall, Cancelled: true}
	cases := []struct {
		d            Dialect
		code         int
		msg          string
		c            ErrorContext
		name, beside string
	}{
		// the seed's answer to $/cancel, and the example
		{DialectMCPFlow, -32000, "Cancelled", cancelled, "Cancelled", ""},
		// the same words without a cancellation seen (it left the capture)
		{DialectMCPFlow, -32000, "Cancelled", call, "Cancelled", ""},
		{DialectMCPFlow, -32000, "aborted", cancelled, "Cancelled", "Cancelled"},
		{DialectMCPFlow, -32000, "too many streams", call, "Stream Limit Exceeded", "Stream Limit Exceeded"},
		{DialectMCPFlow, -32000, "Stream Limit Exceeded", cancelled, "Stream Limit Exceeded", ""},
		{DialectMCPFlow, -32000, "busy", ErrorContext{}, "Stream Limit Exceeded", "Stream Limit Exceeded"},
		{DialectMCPFlow, -32000, "busy", ErrorContext{Method: MethodToolsList}, "Server error", "Server error"},
		{DialectMCP, -32800, "Request cancelled", ErrorContext{}, "Cancelled", ""},
		{DialectMCP, -32800, "gone", cancelled, "Cancelled", "Cancelled"},
		{DialectMCP, -32800, "gone", call, "", ""},
		{DialectMCP, -32000, "request canceled by client", call, "Cancelled", ""},
		{DialectMCP, -32002, "Resource not found: file:///x", call, "Resource not found", ""},
		{DialectMCP, -32002, "no such file", call, "Resource not found", "Resource not found"},
		{DialectMCP, -32601, "Cancelled", cancelled, "Method not found", "Method not found"},
		{DialectMCP, -32602, "", call, "Invalid params", "Invalid params"},
		{DialectStdioTemplates, -32000, "Cancelled", ErrorContext{}, "Cancelled", ""},
		{DialectStdioTemplates, -32000, "no template x", ErrorContext{}, "Template not found", "Template not found"},
		{DialectGateway, -32000, "boom", cancelled, "Cancelled", "Cancelled"},
		{DialectJSONRPC, 42, "x", cancelled, "", ""},
		// an MCP request on MCP-Flow or beside interactive sessions reads in MCP's words
		{DialectMCPFlow, -32002, "no such thing", ErrorContext{Method: MethodResourcesRead}, "Resource not found", "Resource not found"},
		{DialectMCPFlow, -32002, "injected", call, "Stream Injection", "Stream Injection"},
		{DialectMCPFlow, -32002, "injected", ErrorContext{}, "Stream Injection", "Stream Injection"},
		{DialectInteraction, -32002, "gone", ErrorContext{Method: MethodResourcesRead}, "Resource not found", "Resource not found"},
		{DialectInteraction, -32002, "gone", ErrorContext{Method: MethodInteractionRespond}, "SESSION_EXPIRED", "SESSION_EXPIRED"},
		{DialectInteraction, -32007, "no", ErrorContext{Method: MethodCapabilities}, "NOT_INTERACTIVE", "NOT_INTERACTIVE"},
		{DialectMCP, -32007, "no", ErrorContext{Method: MethodInteractionStart}, "NOT_INTERACTIVE", "NOT_INTERACTIVE"},
		{DialectMCPFlow, -32001, "gone", ErrorContext{Method: MethodInteractionRespond}, "SESSION_NOT_FOUND", "SESSION_NOT_FOUND"},
	}
	for _, tc := range cases {
		e := &jsonrpc.Error{Code: tc.code, Message: tc.msg}
		if got := ErrorNameIn(tc.d, e, tc.c); got != tc.name {
			t.Errorf("ErrorNameIn(%s, %d %q, %+v) = %q, want %q", tc.d, tc.code, tc.msg, tc.c, got, tc.name)
		}
		if got := ErrorNameBeside(tc.d, e, tc.c); got != tc.beside {
			t.Errorf("ErrorNameBeside(%s, %d %q, %+v) = %q, want %q", tc.d, tc.code, tc.msg, tc.c, got, tc.beside)
		}
	}
	if ErrorNameIn(DialectMCP, nil, call) != "" {
		t.Error("a nil error has a name")
	}
}
