//go:build linux

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// The read_file workload: 2 GiB of generated data, the stream before the
// result (the server hashes while it sends, for both readers alike).
const (
	readFileSize  = 2 << 30
	readFileOrder = "stream_first"
)

// heapSampleEvery is the sampling period of the client's heap footprint.
const heapSampleEvery = 5 * time.Millisecond

// readFileParams are the tools/call params of the workload.
func readFileParams() json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"name":"read_file","arguments":{"size":%d,"order":%q}}`, readFileSize, readFileOrder))
}

// mcpscopeReadFile runs one read_file through mcpscope's stack and returns
// the wall time from the request to the end of both result and stream.
func mcpscopeReadFile(b *testing.B, c *flowClient, sink *payloadCounter) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	var id jsonrpc.ID
	start := time.Now()
	if _, err := c.session.Call(ctx, "tools/call", readFileParams(),
		client.WithRounds(func(_ int, got jsonrpc.ID) { id = got })); err != nil {
		b.Fatalf("mcpscope read_file: %v", err)
	}
	if err := c.transport.AwaitStreams(ctx, id); err != nil {
		b.Fatalf("mcpscope read_file stream: %v", err)
	}
	d := time.Since(start)
	if n := sink.take(); n != readFileSize {
		b.Fatalf("mcpscope read %d bytes: %v", n, errShort)
	}
	return d
}

// bareReadFile runs one read_file through the bare reader.
func bareReadFile(b *testing.B, c *bareFlow) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	start := time.Now()
	n, err := c.readFile(ctx, readFileSize, readFileOrder)
	d := time.Since(start)
	if err != nil {
		b.Fatalf("bare read_file: %v", err)
	}
	if n != readFileSize {
		b.Fatalf("bare reader read %d bytes: %v", n, errShort)
	}
	return d
}

// transferCost is what one reader's transfers cost.
type transferCost struct {
	wall   time.Duration // from the request to the end of result and stream
	cpu    time.Duration // CPU time of this process (the server's too when it runs here)
	server time.Duration // CPU time of the server, when it runs in a process of its own
	heap   uint64        // peak HeapInuse+StackInuse of the process
}

// measured runs one transfer with the heap sampled and adds its cost to c.
func (c *transferCost) measured(b *testing.B, transfer func() time.Duration) {
	b.Helper()
	c.measuredBeside(b, nil, transfer)
}

// measuredBeside is measured, with serverCPU, when not nil, reading the
// CPU time so far of a server in a process of its own.
func (c *transferCost) measuredBeside(b *testing.B, serverCPU func() time.Duration, transfer func() time.Duration) {
	b.Helper()
	runtime.GC() // start both readers from the same heap
	var srv0 time.Duration
	if serverCPU != nil {
		srv0 = serverCPU()
	}
	cpu0 := processCPU(b)
	done := sampleHeap(heapSampleEvery)
	c.wall += transfer()
	c.heap = max(c.heap, done())
	c.cpu += processCPU(b) - cpu0
	if serverCPU != nil {
		c.server += serverCPU() - srv0
	}
}

// reportTransfers reports the throughput of mcpscope and the bare reader
// over bytes moved by each, their ratio (mcpscope ÷ bare), CPU time per
// GiB (the server's apart when it runs apart), peak heaps and, unless rss
// is 0, the client's peak RSS. MB are 10^6 bytes.
func reportTransfers(b *testing.B, bytes int64, ours, bare transferCost, rss uint64) {
	mb := float64(bytes) / 1e6
	gib := float64(bytes) / (1 << 30)
	b.ReportMetric(mb/ours.wall.Seconds(), "mcpscope-MB/s")
	b.ReportMetric(mb/bare.wall.Seconds(), "bare-MB/s")
	b.ReportMetric(bare.wall.Seconds()/ours.wall.Seconds(), "ratio")
	b.ReportMetric(ours.cpu.Seconds()/gib, "mcpscope-cpu-s/GiB")
	b.ReportMetric(bare.cpu.Seconds()/gib, "bare-cpu-s/GiB")
	if ours.server != 0 || bare.server != 0 {
		b.ReportMetric(ours.server.Seconds()/gib, "server-cpu-s/GiB-mcpscope")
		b.ReportMetric(bare.server.Seconds()/gib, "server-cpu-s/GiB-bare")
	}
	b.ReportMetric(mib(ours.heap), "mcpscope-heap-MiB")
	b.ReportMetric(mib(bare.heap), "bare-heap-MiB")
	if rss != 0 {
		b.ReportMetric(mib(rss), "client-peak-RSS-MiB")
	}
}

// BenchmarkReadFileStreamVsBareReader compares the throughput of a 2 GiB
// read_file execution stream over loopback MCP-Flow: mcpscope's client (the
// webtransport transport, the engine, a capture store as Sink and a
// counting StreamSink) versus a bare webtransport-go reader of the same
// stream from the same server, alternating in the same run. "ratio" is
// mcpscope ÷ bare (target ≥ 0.9). MB are 10^6 bytes.
//
// Memory: "*-heap-MiB" is the peak HeapInuse+StackInuse of this process
// during each reader's transfers (the in-process server included, so the
// difference is the client's share); "client-peak-RSS-MiB" is the peak RSS
// (VmHWM) of `mcpscope call` reading the same 2 GiB as a separate process
// (target ≤ 100).
func BenchmarkReadFileStreamVsBareReader(b *testing.B) {
	srv := flowtest.Start(b, flow.Config{})
	sink := &payloadCounter{}
	ours := dialFlow(b, srv.Server, nil, client.DefaultMaxInFlight, sink.open)
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	theirs, err := dialBare(ctx, srv.URL(), srv.CertHash())
	cancel()
	if err != nil {
		b.Fatal(err)
	}
	defer theirs.close()

	var ourCost, bareCost transferCost
	runOurs := func() { ourCost.measured(b, func() time.Duration { return mcpscopeReadFile(b, ours, sink) }) }
	runBare := func() { bareCost.measured(b, func() time.Duration { return bareReadFile(b, theirs) }) }
	runs := 0
	for b.Loop() {
		inTurn(runs, runOurs, runBare)
		runs++
	}
	rss := cliPeakRSS(b, srv)

	reportTransfers(b, readFileSize*int64(runs), ourCost, bareCost, rss)
}
