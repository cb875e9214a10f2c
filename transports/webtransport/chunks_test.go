package webtransport

import (
	"bytes"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// reporter is a transport (never started) that reports to sink.
func reporter(t *testing.T, sink capture.Sink) *Transport {
	t.Helper()
	tr, err := New(Config{URL: "https://127.0.0.1:1/mcp", Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// feedChunks passes n chunks of size bytes through a copier to sink, the
// way pump does, from one reused read buffer. It returns the payload and
// the frames in order.
func feedChunks(t *testing.T, sink capture.Sink, n, size int) ([]byte, []*capture.Frame) {
	tr := reporter(t, sink)
	key := tr.streamKey(1, 1)
	copies := chunkCopier{reuse: capture.ReleasesUnheld(sink)}
	read := make([]byte, size)
	var payload []byte
	var frames []*capture.Frame
	for i := range n {
		for j := range read {
			read[j] = byte(i*7 + j)
		}
		payload = append(payload, read...)
		f := copies.frame(key, read)
		copies.reported(f, tr.report(capture.In, f))
		frames = append(frames, f)
	}
	return payload, frames
}

// arrays counts the distinct backing arrays of the frames' bytes.
func arrays(frames []*capture.Frame) int {
	seen := make(map[*byte]bool)
	for _, f := range frames {
		seen[&f.Raw[:1][0]] = true
	}
	return len(seen)
}

func TestChunkCopiesReusedPastTheStoreHead(t *testing.T) {
	const n, size = 40, 100
	store := capture.NewStore(capture.Config{StreamHead: 250, StreamTail: 250})
	payload, frames := feedChunks(t, store, n, size)

	held := store.Window(0, store.Len())
	if len(held) == 0 || len(held) >= n {
		t.Fatalf("the store holds %d of %d chunks, want the head only", len(held), n)
	}
	for i, f := range held { // the chunks of the head keep their own bytes
		if want := payload[i*size : (i+1)*size]; !bytes.Equal(f.Raw, want) {
			t.Fatalf("held chunk %d was overwritten: % x…, want % x…", i, f.Raw[:8], want[:8])
		}
	}
	key := capture.StreamKey{Conn: DefaultConn, ReqID: 1, Tag: 1}
	if got := store.StreamHead(key); !bytes.Equal(got, payload[:250]) {
		t.Fatalf("stream head of %d bytes differs from the first 250 bytes", len(got))
	}
	if got := store.StreamTail(key); !bytes.Equal(got, payload[len(payload)-250:]) {
		t.Fatalf("stream tail of %d bytes differs from the last 250 bytes", len(got))
	}
	// Each held chunk has its own copy; every later one reuses one copy.
	if got, want := arrays(frames), len(held)+1; got != want {
		t.Fatalf("%d chunks used %d copies, want %d (one per held chunk, one for the rest)", n, got, want)
	}
}

func TestChunkCopiesNeverReusedForOtherSinks(t *testing.T) {
	const n, size = 20, 64
	var kept []*capture.Frame
	keeper := capture.SinkFunc(func(f *capture.Frame) uint64 {
		kept = append(kept, f) // keeps every frame, yet answers 0
		return 0
	})
	payload, frames := feedChunks(t, keeper, n, size)
	if got := arrays(frames); got != n {
		t.Fatalf("%d chunks shared %d copies, want one each", n, got)
	}
	for i, f := range kept {
		if !bytes.Equal(f.Raw, payload[i*size:(i+1)*size]) {
			t.Fatalf("kept chunk %d was overwritten", i)
		}
	}
	if !capture.ReleasesUnheld(capture.Discard) || capture.ReleasesUnheld(capture.Tee(capture.NewStore(capture.Config{}), keeper)) {
		t.Fatal("only the Store and Discard may have their unheld chunks reused")
	}
}

func TestChunkPastTheHeadCostsOneAllocation(t *testing.T) {
	store := capture.NewStore(capture.Config{StreamHead: 1, StreamTail: 1 << 10})
	tr := reporter(t, store)
	key := tr.streamKey(1, 1)
	copies := chunkCopier{reuse: capture.ReleasesUnheld(store)}
	read := make([]byte, 64<<10)
	chunk := func() {
		f := copies.frame(key, read)
		copies.reported(f, tr.report(capture.In, f))
	}
	chunk() // the head
	if allocs := testing.AllocsPerRun(100, chunk); allocs > 1 {
		t.Fatalf("a chunk past the head costs %.0f allocations, want the frame only", allocs)
	}
}
