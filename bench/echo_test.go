package bench

import (
	"context"
	"encoding/json"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/peertest"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// echoWorkload is one measured batch: calls echo calls, inFlight at a time.
const (
	echoCalls    = 4000
	echoInFlight = 64
)

// pipeline runs n calls of call with at most inFlight outstanding and
// returns the wall time.
func pipeline(b *testing.B, n, inFlight int, call func() error) time.Duration {
	b.Helper()
	var wg sync.WaitGroup
	slots := make(chan struct{}, inFlight)
	errs := make(chan error, 1)
	start := time.Now()
	for i := 0; i < n; i++ {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			if err := call(); err != nil {
				select {
				case errs <- err:
				default:
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	select {
	case err := <-errs:
		b.Fatalf("echo call failed: %v", err)
	default:
	}
	return elapsed
}

// mcpscopeEcho connects mcpscope's engine over its stdio transport, with a
// real capture store, as the TUI and the CLI do.
func mcpscopeEcho(b *testing.B, argv []string) (call func() error, stop func()) {
	b.Helper()
	return mcpscopeEchoOver(b, stdio.New(stdio.Config{Command: argv[0], Args: argv[1:], Sink: capture.NewStore(capture.DefaultConfig())}))
}

// mcpscopeEchoOver connects mcpscope's engine over t and returns a call of
// the echo tool.
func mcpscopeEchoOver(b *testing.B, t client.Transport) (call func() error, stop func()) {
	b.Helper()
	s := client.New(t, client.Options{MaxInFlight: echoInFlight})
	ctx := context.Background()
	if err := s.Connect(ctx); err != nil {
		b.Fatalf("mcpscope connect: %v", err)
	}
	params := json.RawMessage(`{"name":"echo","arguments":{"message":"hello"}}`)
	return func() error {
		_, err := s.Call(ctx, "tools/call", params)
		return err
	}, func() { _ = s.Close() }
}

// goSDKEcho connects the official Go SDK client to the same server.
func goSDKEcho(b *testing.B, argv []string) (call func() error, stop func()) {
	b.Helper()
	return goSDKEchoOver(b, &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...)})
}

// goSDKEchoOver connects the official Go SDK client over t and returns a
// call of the echo tool.
func goSDKEchoOver(b *testing.B, t mcp.Transport) (call func() error, stop func()) {
	b.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := c.Connect(ctx, t, nil)
	if err != nil {
		b.Fatalf("go-sdk connect: %v", err)
	}
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hello"}}
	return func() error {
		_, err := cs.CallTool(ctx, params)
		return err
	}, func() { _ = cs.Close() }
}

// BenchmarkPipelinedEchoStdio compares requests/s of pipelined echo calls
// over stdio against mark3labs/mcp-go's everything server: mcpscope's engine
// versus the official Go SDK client, alternating in the same run. The
// figure of merit is the reported "ratio" (mcpscope ÷ Go SDK; target ≥ 1.0).
func BenchmarkPipelinedEchoStdio(b *testing.B) {
	argv := peertest.Mark3labsEverything(b)
	ours, stopOurs := mcpscopeEcho(b, argv)
	defer stopOurs()
	theirs, stopTheirs := goSDKEcho(b, argv)
	defer stopTheirs()
	compareEcho(b, echoCalls, ours, theirs)
}

// compareEcho warms both clients, then runs batches of calls pipelined
// echo calls with each, alternating, and reports each one's requests/s
// and the ratio (mcpscope ÷ Go SDK).
func compareEcho(b *testing.B, calls int, ours, theirs func() error) {
	b.Helper()
	pipeline(b, 200, echoInFlight, ours) // warm both
	pipeline(b, 200, echoInFlight, theirs)

	var tOurs, tTheirs time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tOurs += pipeline(b, calls, echoInFlight, ours)
		tTheirs += pipeline(b, calls, echoInFlight, theirs)
	}
	n := float64(calls * b.N)
	b.ReportMetric(n/tOurs.Seconds(), "mcpscope-req/s")
	b.ReportMetric(n/tTheirs.Seconds(), "gosdk-req/s")
	b.ReportMetric(tTheirs.Seconds()/tOurs.Seconds(), "ratio")
}
