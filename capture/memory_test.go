package capture

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
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

// ringBound is what the ring of n frame pointers costs.
func ringBound(n int) int64 { return int64(n) * int64(unsafe.Sizeof((*Frame)(nil))) }

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
	bound := cfg.MaxBytes + 2*int64(cfg.MaxStreams*(cfg.StreamHead+cfg.StreamTail)) + ringBound(20_000)
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
	bound := NewStore(cfg).Config().MemoryBound()
	params := json.RawMessage(`{"data":"` + string(make([]byte, 500)) + `"}`)
	for i := range 1_000_000 {
		f := control(i, 1024)
		id := jsonrpc.IntID(int64(i))
		f.Msg = &jsonrpc.Message{JSONRPC: "2.0", ID: &id, Method: "tools/call", Params: append(json.RawMessage(nil), params...), Raw: f.Raw}
		s.Append(f)
		if i%250_000 == 249_999 {
			checkHeap(t, "while appending", base, bound)
		}
	}
	checkHeap(t, "after 1,000,000 frames", base, bound)
	if st := s.Stats(); st.RawBytes+st.DecodedBytes+st.MetaBytes > cfg.MaxBytes || st.LastSeq != 1_000_000 {
		t.Fatalf("Stats = %+v", st)
	}
	runtime.KeepAlive(s)
}

func TestMemoryBoundGiantFrame(t *testing.T) {
	cfg := Config{MaxBytes: 1 << 20}
	base := heap()
	s := NewStore(cfg)
	giant := make([]byte, 256<<20)
	s.Append(&Frame{Raw: giant, Msg: &jsonrpc.Message{Result: json.RawMessage(giant[1:]), Raw: giant}})
	giant = nil
	checkHeap(t, "after a 256 MiB frame", base, cfg.MaxBytes)
	if f, _ := s.Get(1); f.Size != 256<<20 || f.Kept != 256<<10 {
		t.Fatalf("Size %d Kept %d", f.Size, f.Kept)
	}
	runtime.KeepAlive(s)
}

// wireFrame is frame i of a realistic session as a transport captures it:
// fresh wire bytes (an MCP-Flow control frame or a stdio line), the
// framer's annotations and the decoded message, in turn a request, its
// result, an error and a notification.
func wireFrame(i int) *Frame {
	var body string
	switch i % 4 {
	case 0:
		body = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"call %d"}}}`, i, i)
	case 1:
		body = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"answer %d"}],"isError":false}}`, i-1, i)
	case 2:
		body = fmt.Sprintf(`{"jsonrpc":"2.0","id":"req-%d","error":{"code":-32602,"message":"invalid params","data":{"at":%d}}}`, i, i)
	default:
		body = fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"flood line %d of the server"}}`, i)
	}
	var raw []byte
	var fields []proto.Field
	if i%8 < 4 {
		raw = flow.AppendControlFrame(nil, []byte(body))
		_, _, fields, _ = flow.ParseControlFrame(raw, flow.DefaultMaxControlFrame)
	} else {
		raw = []byte(body + "\n")
		fields = jsonrpc.LineFields(raw)
	}
	m, err := jsonrpc.DecodeMessage([]byte(body))
	if err != nil {
		panic(err)
	}
	m.Raw = nil
	return &Frame{Dir: In, Conn: "wt", Chan: Channel{Kind: Control}, Raw: raw, Size: len(raw), Fields: fields, Enc: proto.EncJSON, Msg: m}
}

// Filled to its caps with realistic frames, the store's heap stays within
// the bound its Config documents, whichever cap binds: the frame count or
// the byte budget, which counts every frame's metadata. It reports what a
// held frame costs on the heap and what the store accounts for it.
func TestMemoryBoundRealisticFrames(t *testing.T) {
	for _, cfg := range []Config{
		{MaxFrames: 20_000, MaxBytes: 64 << 20}, // the count binds
		{MaxFrames: 100_000, MaxBytes: 8 << 20}, // the budget binds
	} {
		cfg.MaxStreams, cfg.StreamHead, cfg.StreamTail = 1, 1, 1 // no stream: the bound is the frames'

		base := heap()
		s := NewStore(cfg)
		for i := range 2 * cfg.MaxFrames {
			s.Append(wireFrame(i))
		}
		got := heap() - base
		st := s.Stats()
		held := st.RawBytes + st.DecodedBytes + st.MetaBytes
		bound := s.Config().MemoryBound()
		t.Logf("MaxFrames %d, MaxBytes %d MiB: %d frames held, heap %.1f MiB (%.0f B/frame), accounted %.1f MiB (%.0f B/frame), bound %d MiB",
			cfg.MaxFrames, cfg.MaxBytes>>20, st.Frames, float64(got)/(1<<20), float64(got)/float64(st.Frames),
			float64(held)/(1<<20), float64(held)/float64(st.Frames), bound>>20)
		if held > cfg.MaxBytes {
			t.Errorf("the store accounts %d bytes, over its budget of %d", held, cfg.MaxBytes)
		}
		if got > bound+slack {
			t.Errorf("heap grew by %d MiB, over the documented bound of %d MiB + %d MiB slack", got>>20, bound>>20, slack>>20)
		}
		if float64(got) > 1.2*float64(held)+float64(ringBound(cfg.MaxFrames))+slack {
			t.Errorf("the store accounts %d bytes for %d bytes of heap: the accounting is off", held, got)
		}
		runtime.KeepAlive(s)
	}
}

// The default bounds hold about 300 MiB, as DefaultConfig says.
func TestDefaultMemoryBound(t *testing.T) {
	if b := DefaultConfig().MemoryBound(); b < 290<<20 || b > 310<<20 {
		t.Fatalf("MemoryBound of the defaults = %d MiB", b>>20)
	}
}
