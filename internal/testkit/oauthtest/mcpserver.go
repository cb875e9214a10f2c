package oauthtest

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// echoArgs are the arguments of the echo tool (and of the step-up tool).
type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to answer"`
}

// newMCPHandler returns the official Go SDK's Streamable HTTP server with
// the tool echo, which answers its text, and the step-up tool when set,
// which does the same.
func newMCPHandler(o Options) http.Handler {
	if o.MCPHandler != nil {
		return o.MCPHandler
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "oauthtest", Version: "1.0.0"}, nil)
	echo := func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	}
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Answers its text."}, echo)
	if o.StepUpTool != "" {
		mcp.AddTool(server, &mcp.Tool{Name: o.StepUpTool, Description: "Answers its text, given scope " + o.StepUpScope + "."}, echo)
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
}
