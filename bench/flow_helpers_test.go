package bench

import (
	"context"
	"errors"
	"io"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// flowHangGuard bounds every wait of the MCP-Flow benchmarks; it only fires
// on a hang (a 2 GiB transfer takes seconds, not minutes).
const flowHangGuard = 5 * time.Minute

// flowClient is mcpscope's real stack over MCP-Flow: the webtransport
// transport, the engine and a capture store.
type flowClient struct {
	session   *client.Session
	transport *webtransport.Transport
}

// dialFlow connects mcpscope's engine to srv, offering encodings and sending
// execution stream payloads to streamSink (nil discards them).
func dialFlow(b *testing.B, srv *flow.Server, encodings []string, inFlight int,
	streamSink func(capture.StreamKey) (io.WriteCloser, error)) *flowClient {
	b.Helper()
	return dialFlowTo(b, srv, capture.NewStore(capture.DefaultConfig()), encodings, inFlight, streamSink)
}

// dialFlowTo is dialFlow with the frames going to sink.
func dialFlowTo(b *testing.B, srv *flow.Server, sink capture.Sink, encodings []string, inFlight int,
	streamSink func(capture.StreamKey) (io.WriteCloser, error)) *flowClient {
	b.Helper()
	t, err := webtransport.New(webtransport.Config{
		URL: srv.URL(), CertHashes: []string{srv.CertHash()}, Encodings: encodings,
		Sink: sink, StreamSink: streamSink,
	})
	if err != nil {
		b.Fatalf("mcpscope MCP-Flow transport: %v", err)
	}
	s := client.New(t, client.Options{MaxInFlight: inFlight, Timeout: flowHangGuard})
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		b.Fatalf("mcpscope connect over MCP-Flow: %v", err)
	}
	b.Cleanup(func() { _ = s.Close() })
	if len(encodings) == 1 {
		if n, _ := t.Negotiated(); n.Encoding != encodings[0] {
			b.Fatalf("the server negotiated encoding %q, want %q", n.Encoding, encodings[0])
		}
	}
	return &flowClient{session: s, transport: t}
}

// payloadCounter is a StreamSink that drops payloads and counts their bytes.
type payloadCounter struct{ n atomic.Int64 }

// open is the Config.StreamSink of the counter.
func (c *payloadCounter) open(capture.StreamKey) (io.WriteCloser, error) { return c, nil }

// Write counts p.
func (c *payloadCounter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return len(p), nil
}

// Close ends one stream.
func (c *payloadCounter) Close() error { return nil }

// take returns the bytes counted since the last take.
func (c *payloadCounter) take() int64 { return c.n.Swap(0) }

// Runtime metrics whose sum is MemStats.HeapInuse + MemStats.StackInuse.
var heapInUseMetrics = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/stacks:bytes",
}

// sampleHeap samples the process's HeapInuse+StackInuse every interval,
// without stopping the world, until done is called, which returns the
// peak in bytes.
func sampleHeap(interval time.Duration) (done func() uint64) {
	samples := make([]metrics.Sample, len(heapInUseMetrics))
	for i, name := range heapInUseMetrics {
		samples[i].Name = name
	}
	var peak uint64
	stop := poll(interval, func() {
		metrics.Read(samples)
		var sum uint64
		for _, s := range samples {
			if s.Value.Kind() == metrics.KindUint64 {
				sum += s.Value.Uint64()
			}
		}
		peak = max(peak, sum)
	})
	return func() uint64 {
		stop()
		return peak
	}
}

// poll calls sample at once, then every interval on its own goroutine
// until stop is called, and once more before stop returns.
func poll(interval time.Duration, sample func()) (stop func()) {
	sample()
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				sample()
			}
		}
	})
	return func() {
		close(quit)
		wg.Wait()
		sample()
	}
}

// inTurn runs first then second on even runs and the other way round on
// odd ones, so that neither side always goes first.
func inTurn(run int, first, second func()) {
	if run%2 == 1 {
		first, second = second, first
	}
	first()
	second()
}

// errShort says a transfer delivered fewer bytes than asked for.
var errShort = errors.New("the execution stream delivered a different number of bytes than read_file was asked for")

// mib converts bytes to MiB.
func mib(n uint64) float64 { return float64(n) / (1 << 20) }
