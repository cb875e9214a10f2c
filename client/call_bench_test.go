//go:build unix

package client_test

import (
	"context"
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// nullSink keeps no frame, as mcpscope bench's wire sink keeps none.
type nullSink struct{}

func (nullSink) Append(*capture.Frame) uint64 { return 0 }
func (nullSink) ReleasesUnheld() bool         { return true }

// BenchmarkStdioCall measures the client's cost of one tools/call greet
// to the Go SDK everything server over stdio, 32 calls in flight as
// mcpscope bench's bar sets it: ns/op and allocs/op are the engine's and
// the transport's per call (the server's work runs in its own process).
func BenchmarkStdioCall(b *testing.B) {
	argv := peertest.GoSDKEverything(b)
	tr := stdio.New(stdio.Config{Command: "sh", Args: []string{"-c", "exec " + argv[0] + " 2>/dev/null"}, Sink: nullSink{}})
	s := client.New(tr, client.Options{ProtocolVersion: "2025-11-25"})
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		b.Fatalf("Connect: %v", err)
	}
	defer s.Close()
	params := json.RawMessage(`{"name":"greet","arguments":{"name":"x"}}`)
	b.SetParallelism(16) // 32 callers on 2 cores
	b.ReportAllocs()
	b.ResetTimer()
	before := processCPU(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Call(ctx, mcp.MethodToolsCall, params); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64((processCPU(b)-before).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// processCPU is the CPU time this process used so far (the server's,
// another process, is not in it).
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
