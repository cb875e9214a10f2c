//go:build linux

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
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
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

// echoTool is a tool that answers with what it is sent, and the arguments
// each call sends it.
type echoTool struct {
	name string
	args map[string]any
}

// mark3labsEcho is the echo tool of mark3labs/mcp-go's everything server.
var mark3labsEcho = echoTool{name: "echo", args: map[string]any{"message": "hello"}}

// mcpscopeEcho connects mcpscope's engine over its stdio transport, with a
// real capture store, as the TUI and the CLI do.
func mcpscopeEcho(b *testing.B, argv []string) (call func() error, stop func()) {
	b.Helper()
	t := stdio.New(stdio.Config{Command: argv[0], Args: argv[1:], Sink: capture.NewStore(capture.DefaultConfig())})
	return mcpscopeEchoOver(b, t, mark3labsEcho)
}

// mcpscopeEchoOver connects mcpscope's engine over t and returns a call of
// tool.
func mcpscopeEchoOver(b *testing.B, t client.Transport, tool echoTool) (call func() error, stop func()) {
	b.Helper()
	s := client.New(t, client.Options{MaxInFlight: echoInFlight})
	ctx := context.Background()
	if err := s.Connect(ctx); err != nil {
		b.Fatalf("mcpscope connect: %v", err)
	}
	params, err := json.Marshal(map[string]any{"name": tool.name, "arguments": tool.args})
	if err != nil {
		b.Fatal(err)
	}
	return func() error {
		_, err := s.Call(ctx, "tools/call", json.RawMessage(params))
		return err
	}, func() { _ = s.Close() }
}

// goSDKEcho connects the official Go SDK client to the same server.
func goSDKEcho(b *testing.B, argv []string) (call func() error, stop func()) {
	b.Helper()
	return goSDKEchoOver(b, &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...)}, mark3labsEcho)
}

// goSDKEchoOver connects the official Go SDK client over t and returns a
// call of tool.
func goSDKEchoOver(b *testing.B, t mcp.Transport, tool echoTool) (call func() error, stop func()) {
	b.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := c.Connect(ctx, t, nil)
	if err != nil {
		b.Fatalf("go-sdk connect: %v", err)
	}
	params := &mcp.CallToolParams{Name: tool.name, Arguments: tool.args}
	return func() error {
		_, err := cs.CallTool(ctx, params)
		return err
	}, func() { _ = cs.Close() }
}

// BenchmarkPipelinedEchoStdio compares requests/s of pipelined echo calls
// over stdio against mark3labs/mcp-go's everything server: mcpscope's engine
// versus the official Go SDK client, each with a server process of its
// own, in turn in the same run. The figure of merit is the reported "ratio"
// (mcpscope ÷ Go SDK; target ≥ 1.0); compareEcho says what else it reports.
func BenchmarkPipelinedEchoStdio(b *testing.B) {
	argv := peertest.Mark3labsEverything(b)
	ours, stopOurs := mcpscopeEcho(b, argv)
	defer stopOurs()
	theirs, stopTheirs := goSDKEcho(b, argv)
	defer stopTheirs()
	compareEcho(b, echoCalls, ours, theirs, nil)
}
