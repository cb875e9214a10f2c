package capture

import (
	"sync"
	"testing"
	"time"
)

// controlTemplate is a 200-byte JSON-RPC control message, the common case.
var controlTemplate = func() Frame {
	raw := []byte(`{"jsonrpc":"2.0","id":1234,"method":"notifications/progress","params":{"progressToken":"tok-1","progress":50,"total":100,"message":"working on it, step 50 of 100"}}`)
	for len(raw) < 199 {
		raw = append(raw, ' ')
	}
	raw = append(raw, '\n')
	return Frame{Time: time.Unix(1, 0), Dir: In, Conn: "stdio", Raw: raw, Size: len(raw)}
}()

// newControl allocates one frame per append, as a transport does.
func newControl() *Frame {
	f := new(Frame)
	*f = controlTemplate
	return f
}

// reportRate reports frames per second over the timed part.
func reportRate(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}

func BenchmarkStoreAppend(b *testing.B) {
	s := NewStore(DefaultConfig())
	b.ReportAllocs()
	for b.Loop() {
		s.Append(newControl())
	}
	reportRate(b)
}

func BenchmarkStoreAppendParallel(b *testing.B) {
	s := NewStore(DefaultConfig())
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.Append(newControl())
		}
	})
	reportRate(b)
}

// sliceSink is the baseline: the same frames appended to a plain slice
// under a mutex, with no bounds at all.
type sliceSink struct {
	mu     sync.Mutex
	frames []*Frame
}

func (s *sliceSink) Append(f *Frame) uint64 {
	s.mu.Lock()
	s.frames = append(s.frames, f)
	n := uint64(len(s.frames))
	f.Seq = n
	s.mu.Unlock()
	return n
}

func BenchmarkSliceAppendBaseline(b *testing.B) {
	var s sliceSink
	b.ReportAllocs()
	for b.Loop() {
		s.Append(newControl())
	}
	reportRate(b)
}

func BenchmarkSliceAppendBaselineParallel(b *testing.B) {
	var s sliceSink
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.Append(newControl())
		}
	})
	reportRate(b)
}

// BenchmarkStoreAppendStreamChunk measures a 64 KiB execution-stream chunk
// past the stream's head: counted and copied into the tail ring only.
func BenchmarkStoreAppendStreamChunk(b *testing.B) {
	s := NewStore(DefaultConfig())
	key := StreamKey{Conn: "wt", ReqID: 1, Tag: 1}
	p := make([]byte, 64<<10)
	s.Append(chunk(key, true, 0, p, time.Now()))
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		s.Append(chunk(key, false, 1, p, time.Unix(2, 0)))
	}
	reportRate(b)
}
