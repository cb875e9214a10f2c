package look

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestErrorHeadlineByContext checks an error's code is named by the
// dialect and the request it answers, and never against the server's
// message: MCP-Flow's answer to $/cancel reads "error -32000 Cancelled",
// not "Stream Limit Exceeded".
func TestErrorHeadlineByContext(t *testing.T) {
	rpc := func(method string, code int, msg string) error {
		return &client.RPCError{Method: method, Err: &jsonrpc.Error{Code: code, Message: msg}}
	}
	cases := []struct {
		err  error
		d    mcp.Dialect
		want string
	}{
		{rpc(mcp.MethodToolsCall, -32000, "Cancelled"), mcp.DialectMCPFlow, "error -32000 Cancelled"},
		{rpc(mcp.MethodToolsCall, -32000, "too many streams"), mcp.DialectMCPFlow, "error -32000 Stream Limit Exceeded: too many streams"},
		{rpc(mcp.MethodToolsList, -32000, "busy"), mcp.DialectMCPFlow, "error -32000 Server error: busy"},
		{rpc(mcp.MethodToolsCall, -32800, "Request cancelled"), mcp.DialectMCP, "error -32800 Cancelled: Request cancelled"},
		{rpc("x", -32601, "Method not found"), mcp.DialectMCP, "error -32601 Method not found"},
		{rpc("x", -32601, "method not found"), mcp.DialectMCP, "error -32601 Method not found"},
	}
	for _, tc := range cases {
		if got := ErrorHeadline(tc.err, tc.d); got != tc.want {
			t.Errorf("ErrorHeadline(%v, %s) = %q, want %q", tc.err, tc.d, got, tc.want)
		}
	}
	st := NewStyles(true)
	o := NewOutcome(mcp.MethodToolsCall, nil, rpc(mcp.MethodToolsCall, -32000, "Cancelled"), mcp.DialectMCPFlow, &st)
	if first, _, _ := strings.Cut(ansi.Strip(o.Body), "\n"); first != "error -32000 Cancelled" {
		t.Errorf("outcome headline %q", first)
	}
}

// A failed tool's outcome says it failed once: the failure heads the body,
// the content does not repeat it.
func TestFailedToolSaysItOnce(t *testing.T) {
	st := NewStyles(true)
	res := json.RawMessage(`{"content":[{"type":"text","text":"boom"}],"isError":true}`)
	o := NewOutcome(mcp.MethodToolsCall, res, nil, mcp.DialectMCP, &st)
	o.FailTool(client.CheckToolResult("t", res, nil), &st)
	body := ansi.Strip(o.Body)
	if summary, _, _ := strings.Cut(body, "result JSON"); strings.Count(summary, "isError") != 1 || !strings.Contains(summary, "boom") {
		t.Errorf("body:\n%s", body)
	}
}

// A tool's text keeps its tab columns in the outcome, and a wrapped line of
// the result JSON goes on under its own indentation.
func TestOutcomeTabsAndIndentedWrap(t *testing.T) {
	st := NewStyles(true)
	res := []byte(`{"content":[{"type":"text","text":"name\tvalue"}],"structuredContent":{"deep":{"s":"` + strings.Repeat("x", 60) + `"}}}`)
	o := NewOutcome(mcp.MethodToolsCall, res, nil, mcp.DialectMCP, &st)
	out := ansi.Strip(o.Render(40, 100))
	if !strings.Contains(out, "name    value") {
		t.Errorf("tab lost in the outcome:\n%s", out)
	}
	_, resultJSON, _ := strings.Cut(out, "result JSON")
	lines := strings.Split(resultJSON, "\n")
	for i, l := range lines {
		if strings.Contains(l, `"s": "`) {
			if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "      x") {
				t.Errorf("the wrapped string does not go on under its indentation:\n%s", out)
			}
			return
		}
	}
	t.Errorf("no \"s\" line in the outcome:\n%s", out)
}
