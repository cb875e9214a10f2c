package stdiorelay

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// TestProxyStdioHeapBounded relays 200,000 small messages each way (the
// host's lines through cat and back) and measures the live heap after
// each quarter: once the store is at its caps, the heap stays put however
// long the session goes on.
func TestProxyStdioHeapBounded(t *testing.T) {
	const (
		batches  = 4
		perBatch = 50_000
	)
	cfg := capture.Config{MaxFrames: 20_000, MaxBytes: 8 << 20}
	s := openSession(t, cfg)
	hostIn, toProxy := io.Pipe()
	fromProxy, hostOut := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	ran := make(chan error, 1)
	go func() {
		_, err := Run(ctx, s, Config{Argv: answerServer(t), HostIn: hostIn, HostOut: hostOut, HostErr: io.Discard})
		hostOut.Close()
		ran <- err
	}()
	echoed := bufio.NewScanner(fromProxy)
	heap := make([]uint64, batches)
	for b := range batches {
		go func() {
			w := bufio.NewWriter(toProxy)
			for i := range perBatch {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`+"\n", b*perBatch+i)
			}
			_ = w.Flush()
		}()
		for range perBatch {
			if !echoed.Scan() {
				t.Fatalf("the relay stopped in batch %d: %v", b, echoed.Err())
			}
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		heap[b] = m.HeapAlloc
	}
	toProxy.Close()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	st := s.Store().Stats()
	t.Logf("live heap after each %d messages each way: %v; store holds %d frames of %d", perBatch, heap, st.Frames, st.TotalFrames)
	if grew := int64(heap[batches-1]) - int64(heap[0]); grew > 8<<20 {
		t.Errorf("the heap grew by %d bytes between the first and the last %d messages: not bounded by the store's caps", grew, (batches-1)*perBatch)
	}
	if bound := uint64(cfg.MemoryBound()) + 32<<20; heap[batches-1] > bound {
		t.Errorf("live heap %d bytes, past the store's bound plus 32 MiB (%d)", heap[batches-1], bound)
	}
}
