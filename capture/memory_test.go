package capture

import (
	"encoding/json"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/mcpscope/mcpscope/proto"
)

// slack covers the runtime, the test's own live values and GC timing.
const slack = 16 << 20

// heap returns the live heap after a full collection.
func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// metadataBound is what MaxFrames held frames may cost beside their bytes.
func metadataBound(frames int) int64 {
	per := unsafe.Sizeof(Frame{}) + unsafe.Sizeof(proto.Message{}) + unsafe.Sizeof(proto.ID{}) + 64
	return int64(frames) * int64(per)
}

// checkHeap fails when the live heap is above base + bound + slack.
func checkHeap(t *testing.T, what string, base, bound int64) {
	t.Helper()
	got := heap() - base
	if got > bound+slack {
		t.Fatalf("%s: heap grew by %d MiB, bound %d MiB + %d MiB slack", what, got>>20, bound>>20, slack>>20)
	}
	t.Logf("%s: heap grew by %.1f MiB (bound %d MiB + %d MiB slack)", what, float64(got)/(1<<20), bound>>20, slack>>20)
}

func TestMemoryBoundStreamDownload(t *testing.T) {
	const total, size = 2 << 30, 64 << 10
	cfg := Config{MaxBytes: 8 << 20}
	base := heap()
	s := NewStore(cfg)
	cfg = s.Config()
	bound := cfg.MaxBytes + 2*int64(cfg.StreamHead+cfg.StreamTail)
	key := StreamKey{Conn: "wt", ReqID: 1, Tag: 1}
	t0 := time.Now()
	for i := range total / size {
		p := make([]byte, size) // a fresh buffer per chunk, as a read loop hands over
		p[0], p[size-1] = byte(i), byte(i>>8)
		s.Append(chunk(key, i == 0, i, p, t0.Add(time.Duration(i)*time.Microsecond)))
		if i%8192 == 8191 {
			checkHeap(t, "during the download", base, bound)
		}
	}
	checkHeap(t, "after the download", base, bound)
	st, _ := s.Stream(key)
	if st.Bytes != total || st.Chunks != total/size || s.Len() != 1 {
		t.Fatalf("Stream = %+v, Len = %d", st, s.Len())
	}
	runtime.KeepAlive(s)
}

func TestMemoryBoundManyStreams(t *testing.T) {
	cfg := Config{MaxBytes: 4 << 20, MaxStreams: 16, StreamHead: 32 << 10, StreamTail: 32 << 10}
	base := heap()
	s := NewStore(cfg)
	bound := cfg.MaxBytes + 2*int64(cfg.MaxStreams*(cfg.StreamHead+cfg.StreamTail)) + metadataBound(5000)
	for n := range 5000 {
		key := StreamKey{Conn: "gw", ReqID: uint32(n)}
		for i := range 4 {
			s.Append(chunk(key, i == 0, i, make([]byte, 24<<10), time.Now()))
		}
	}
	checkHeap(t, "after 5000 streams", base, bound)
	if st := s.Stats(); st.Streams != 16 || st.Forgotten != 5000-16 {
		t.Fatalf("Stats = %+v", st)
	}
	runtime.KeepAlive(s)
}

func TestMemoryBoundManyFrames(t *testing.T) {
	cfg := Config{MaxFrames: 20_000, MaxBytes: 4 << 20}
	base := heap()
	s := NewStore(cfg)
	bound := cfg.MaxBytes + metadataBound(cfg.MaxFrames) + int64(cfg.MaxFrames)*8
	params := json.RawMessage(`{"data":"` + string(make([]byte, 500)) + `"}`)
	for i := range 1_000_000 {
		f := control(i, 1024)
		id := proto.IntID(int64(i))
		f.Msg = &proto.Message{JSONRPC: "2.0", ID: &id, Method: "tools/call", Params: append(json.RawMessage(nil), params...), Raw: f.Raw}
		s.Append(f)
		if i%250_000 == 249_999 {
			checkHeap(t, "while appending", base, bound)
		}
	}
	checkHeap(t, "after 1,000,000 frames", base, bound)
	if st := s.Stats(); st.Frames != cfg.MaxFrames || st.RawBytes+st.DecodedBytes > cfg.MaxBytes {
		t.Fatalf("Stats = %+v", st)
	}
	runtime.KeepAlive(s)
}

func TestMemoryBoundGiantFrame(t *testing.T) {
	cfg := Config{MaxBytes: 1 << 20}
	base := heap()
	s := NewStore(cfg)
	giant := make([]byte, 256<<20)
	s.Append(&Frame{Raw: giant, Msg: &proto.Message{Result: json.RawMessage(giant[1:]), Raw: giant}})
	giant = nil
	checkHeap(t, "after a 256 MiB frame", base, cfg.MaxBytes)
	if f, _ := s.Get(1); f.Size != 256<<20 || f.Kept != 256<<10 {
		t.Fatalf("Size %d Kept %d", f.Size, f.Kept)
	}
	runtime.KeepAlive(s)
}
