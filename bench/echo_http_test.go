//go:build linux

package bench

import (
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// goSDKGreet is the greet tool of the Go SDK's everything example: it
// answers "Hi " and the name it is sent.
var goSDKGreet = echoTool{name: "greet", args: map[string]any{"name": "hello"}}

// mcpscopeHTTPEcho connects mcpscope's engine over its Streamable HTTP
// transport, with a real capture store, as the TUI and the CLI do.
func mcpscopeHTTPEcho(b *testing.B, url string) (call func() error, stop func()) {
	b.Helper()
	tr, err := mcphttp.New(mcphttp.Config{URL: url, Mode: mcphttp.ModeStreamable, Sink: capture.NewStore(capture.DefaultConfig())})
	if err != nil {
		b.Fatal(err)
	}
	return mcpscopeEchoOver(b, tr, goSDKGreet)
}

// goSDKHTTPClient is the Go SDK client's HTTP client: net/http's default
// transport keeping as many idle connections to the server as mcpscope's
// does (its default keeps 2), so that both reuse their connections alike
// instead of one of them opening new ones under pipelined load.
func goSDKHTTPClient(b *testing.B) *http.Client {
	b.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = mcphttp.IdleConnsPerHost
	b.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// BenchmarkPipelinedEchoHTTP compares requests/s of pipelined tools/call
// requests over Streamable HTTP against one server, the official Go SDK's
// everything example in a process of its own (stateful sessions, SSE
// answers; its greet tool answers with the name it is sent): mcpscope's
// engine with a capture store versus the official Go SDK client, 64
// requests in flight each, both keeping mcphttp.IdleConnsPerHost idle
// connections alive, in turn in the same run. The figure of merit is the
// reported "ratio" (mcpscope ÷ Go SDK; target ≥ 1.0); compareEcho says what
// else it reports, the CPU time each client and the server spend per
// request among it.
func BenchmarkPipelinedEchoHTTP(b *testing.B) {
	srv := peertest.StartGoSDKEverythingHTTP(b)
	ours, stopOurs := mcpscopeHTTPEcho(b, srv.URL)
	defer stopOurs()
	theirs, stopTheirs := goSDKEchoOver(b, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: goSDKHTTPClient(b)}, goSDKGreet)
	defer stopTheirs()
	compareEcho(b, 2000, ours, theirs, func() time.Duration { return processCPUOf(b, srv.PID()) })
}
