//go:build linux

package bench

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	demows "github.com/mcpscope/mcpscope/demo/ws"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// The gateway download workload: system_binary_streams_out of the demo's
// gateway for this many bytes, in its 64 KiB binary chunks, a fresh
// connection per download (one connection per stream, seed 003 v1.0).
const gatewayDownloadSize = 256 << 20

// gatewayRSSSize is what `mcpscope stream` downloads while its RSS is
// sampled.
const gatewayRSSSize = 1 << 30

// gatewayStart is the start of a download of size bytes on stream id.
func gatewayStart(id gateway.GUID, size int64) *gateway.StreamMessage {
	return &gateway.StreamMessage{Type: gateway.StreamStart, ID: id, Meta: &gateway.StreamMeta{
		Method: demows.ToolStreamsOut, Binary: true, CorrelationID: id.String(), TotalSize: &size,
	}}
}

// mcpscopeGatewayDownload runs one download through mcpscope's client as
// the CLI and the TUI run it: the transport in gateway mode, every frame
// to a capture store, the stream's events handed to another goroutine
// (back-pressure included) that takes the payload and gives each chunk's
// buffer back. It returns the wall time from the dial to the server's
// done.
func mcpscopeGatewayDownload(b *testing.B, url string) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	begin := time.Now()
	tr, err := ws.New(ws.Config{URL: url, Mode: ws.ModeGateway, Sink: capture.NewStore(capture.DefaultConfig())})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	events := make(chan ws.StreamEvent, 256)
	tr.OnStream(func(ev ws.StreamEvent) {
		select {
		case events <- ev:
		case <-ctx.Done():
		}
	})
	if err := tr.Start(ctx, func(*jsonrpc.Message) {}); err != nil {
		b.Fatalf("mcpscope gateway dial: %v", err)
	}
	id := gateway.NewGUID()
	if err := tr.SendStream(ctx, gatewayStart(id, gatewayDownloadSize)); err != nil {
		b.Fatalf("mcpscope gateway start: %v", err)
	}
	var payload int64
	for {
		select {
		case ev := <-events:
			if ev.Problem != nil {
				b.Fatalf("mcpscope gateway download: %v", ev.Problem)
			}
			switch {
			case ev.Type == gateway.StreamChunk:
				payload += int64(len(ev.Data))
				ev.Release()
			case ev.Type == gateway.StreamError:
				b.Fatalf("mcpscope gateway download: %d %s", ev.Err.Code, ev.Err.Message)
			case ev.Type == gateway.StreamDone && ev.ID != id:
				d := time.Since(begin)
				if payload != gatewayDownloadSize {
					b.Fatalf("mcpscope read %d bytes: %v", payload, errGatewayShort)
				}
				return d
			}
		case <-tr.Done():
			b.Fatalf("mcpscope gateway download: %v", tr.Err())
		case <-ctx.Done():
			b.Fatalf("mcpscope gateway download: %v", ctx.Err())
		}
	}
}

// bareGatewayRun runs one download through the bare reader.
func bareGatewayRun(b *testing.B, url string) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	start, err := gateway.EncodeStreamMessage(gatewayStart(gateway.NewGUID(), gatewayDownloadSize))
	if err != nil {
		b.Fatal(err)
	}
	begin := time.Now()
	n, err := bareGatewayDownload(ctx, url, start)
	d := time.Since(begin)
	if err != nil {
		b.Fatal(err)
	}
	if n != gatewayDownloadSize {
		b.Fatalf("bare reader read %d bytes: %v", n, errGatewayShort)
	}
	return d
}

// errGatewayShort says a download delivered a different number of bytes
// than its start asked for.
var errGatewayShort = errors.New("the gateway stream delivered a different number of bytes than meta.totalSize asked for")

// BenchmarkGatewayDownloadVsBareReader compares the throughput of a
// 256 MiB seed-003 gateway binary download (system_binary_streams_out of
// the demo's gateway, `mcpscope serve --ws` in a process of its own, over
// loopback): mcpscope's client (the ws transport in gateway mode with a
// capture store as Sink, its stream events taken on another goroutine)
// versus a bare coder/websocket reader of the same stream from the same
// server, in turn in the same run. "ratio" is mcpscope ÷ bare in wall time
// (target ≥ 0.9). MB are 10^6 bytes.
//
// CPU: "*-cpu-s/GiB" is the CPU time of this process, where only the
// clients run, per GiB downloaded: unlike wall time it does not count the
// time a thread waited for a core of a loaded machine.
// "server-cpu-s/GiB-*" is the server's, for each reader's downloads.
//
// Memory: "*-heap-MiB" is the peak HeapInuse+StackInuse of this process
// during each reader's downloads; "client-peak-RSS-MiB" is the peak RSS
// (VmHWM) of `mcpscope stream --stream-out DIR` saving a 1 GiB download as
// a separate process (target ≤ 100).
func BenchmarkGatewayDownloadVsBareReader(b *testing.B) {
	bin := buildMcpscope(b)
	srv := peertest.StartMcpscopeWS(b, bin)
	serverCPU := func() time.Duration { return processCPUOf(b, srv.PID()) }
	var ourCost, bareCost transferCost
	runOurs := func() {
		ourCost.measuredBeside(b, serverCPU, func() time.Duration { return mcpscopeGatewayDownload(b, srv.URL) })
	}
	runBare := func() {
		bareCost.measuredBeside(b, serverCPU, func() time.Duration { return bareGatewayRun(b, srv.URL) })
	}
	runs := 0
	for b.Loop() {
		inTurn(runs, runOurs, runBare)
		runs++
	}
	rss := childPeakRSS(b, bin, gatewayRSSSize, func(out string) []string {
		return []string{"stream", "--stream-out", out, "--timeout", "1m", "--max-time", flowHangGuard.String(),
			"--meta", fmt.Sprintf(`{"totalSize":%d}`, gatewayRSSSize), demows.ToolStreamsOut, srv.URL}
	})

	reportTransfers(b, gatewayDownloadSize*int64(runs), ourCost, bareCost, rss)
}
