package bench

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/capture"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// echoArgs are the arguments of the echo tool of the HTTP benchmark.
type echoArgs struct {
	Message string `json:"message"`
}

// goSDKHTTPServer serves an echo tool over the official Go SDK's
// Streamable HTTP handler (stateful sessions, SSE answers) on a loopback
// port, and returns its URL.
func goSDKHTTPServer(b *testing.B) string {
	b.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench-echo", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "echoes"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Message}}}, nil, nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)}
	go func() { _ = hs.Serve(ln) }()
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
		_ = hs.Close()
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// mcpscopeHTTPEcho connects mcpscope's engine over its Streamable HTTP
// transport, with a real capture store, as the TUI and the CLI do.
func mcpscopeHTTPEcho(b *testing.B, url string) (call func() error, stop func()) {
	b.Helper()
	tr, err := mcphttp.New(mcphttp.Config{URL: url, Mode: mcphttp.ModeStreamable, Sink: capture.NewStore(capture.DefaultConfig())})
	if err != nil {
		b.Fatal(err)
	}
	return mcpscopeEchoOver(b, tr)
}

// BenchmarkPipelinedEchoHTTP compares requests/s of pipelined echo calls
// over Streamable HTTP against one Go SDK server: mcpscope's engine versus
// the official Go SDK client, alternating in the same run. The figure of
// merit is the reported "ratio" (mcpscope ÷ Go SDK; target ≥ 1.0).
func BenchmarkPipelinedEchoHTTP(b *testing.B) {
	url := goSDKHTTPServer(b)
	ours, stopOurs := mcpscopeHTTPEcho(b, url)
	defer stopOurs()
	theirs, stopTheirs := goSDKEchoOver(b, &mcp.StreamableClientTransport{Endpoint: url})
	defer stopTheirs()
	compareEcho(b, 1000, ours, theirs)
}
