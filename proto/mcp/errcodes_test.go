package mcp

import "testing"

func TestErrorNamesKeepDialectsApart(t *testing.T) {
	cases := []struct {
		d    Dialect
		code int
		want string
	}{
		{DialectMCP, -32002, "Resource not found"},
		{DialectMCPFlow, -32002, "Stream Injection"},
		{DialectInteraction, -32002, "SESSION_EXPIRED"},
		{DialectStdioTemplates, -32002, "Parameter validation failed"},
		{DialectGateway, -32002, "Server error"},
		{DialectJSONRPC, -32002, "Server error"},
		{DialectMCP, -32042, "URL elicitation required"},
		{DialectMCPFlow, -32042, "Server error"},
		{DialectMCP, -32020, "Header mismatch"},
		{DialectMCP, -32021, "Missing required client capability"},
		{DialectMCP, -32022, "Unsupported protocol version"},
		{DialectMCPFlow, -32020, "Server error"},
		{DialectInteraction, -32021, "Server error"},
		{DialectMCPFlow, -32000, "Stream Limit Exceeded"},
		{DialectMCPFlow, -32003, "Encoding Mismatch"},
		{DialectMCPFlow, -32004, "Datagram Not Supported"},
		{DialectInteraction, -32007, "NOT_INTERACTIVE"},
		{DialectInteraction, -32001, "SESSION_NOT_FOUND"},
		{DialectStdioTemplates, -32000, "Template not found"},
		{DialectStdioTemplates, -32003, "Rate limit exceeded"},
		{DialectGateway, -32000, "Server error"},
		{DialectJSONRPC, -32100, ""},
		{DialectMCP, 42, ""},
		{DialectJSONRPC, -1, ""},
		{Dialect(99), -32601, "Method not found"},
	}
	for _, tc := range cases {
		if got := ErrorName(tc.d, tc.code); got != tc.want {
			t.Errorf("ErrorName(%s, %d) = %q, want %q", tc.d, tc.code, got, tc.want)
		}
	}
	standard := map[int]string{-32700: "Parse error", -32600: "Invalid Request", -32601: "Method not found", -32602: "Invalid params", -32603: "Internal error"}
	for d := DialectJSONRPC; d <= DialectGateway; d++ {
		for code, name := range standard {
			if got := ErrorName(d, code); got != name {
				t.Errorf("ErrorName(%s, %d) = %q, want %q", d, code, got, name)
			}
		}
	}
	if Dialect(99).String() != "dialect 99" || DialectMCPFlow.String() != "mcp-flow" {
		t.Error("Dialect.String")
	}
}
