package capture

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hammer appends perWriter frames from each of writers goroutines (every
// fourth a stream chunk of the writer's own stream) while readers read, and
// returns the Seq each writer got for its control frames.
func hammer(t *testing.T, s *Store, writers, perWriter int) [][]uint64 {
	t.Helper()
	var stop atomic.Bool
	var readers sync.WaitGroup
	for r := range 3 {
		readers.Go(func() {
			for !stop.Load() {
				st := s.Stats()
				for _, f := range s.Window(st.FirstSeq+uint64(r), 64) {
					_ = f.Seq + uint64(len(f.Raw))
				}
				_ = s.Last(32)
				s.Get(st.LastSeq)
				for _, ss := range s.Streams() {
					_ = s.StreamTail(ss.Key)
					_ = s.StreamHead(ss.Key)
				}
				_ = s.Len()
			}
		})
	}
	got := make([][]uint64, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			key := StreamKey{Conn: fmt.Sprint("w", w), ReqID: uint32(w)}
			for i := range perWriter {
				if i%4 == 3 {
					s.Append(chunk(key, i == 3, i, []byte("chunk-bytes"), time.Now()))
					continue
				}
				f := control(w*perWriter+i, 64)
				if seq := s.Append(f); seq != f.Seq || seq == 0 {
					t.Errorf("Append = %d, f.Seq = %d", seq, f.Seq)
				}
				got[w] = append(got[w], f.Seq)
			}
			s.MarkStream(key, StreamDone, nil)
		})
	}
	wg.Wait()
	stop.Store(true)
	readers.Wait()
	return got
}

func TestConcurrentAppendAndRead(t *testing.T) {
	const writers, perWriter = 8, 4000
	s := NewStore(Config{MaxFrames: 1 << 20, StreamHead: 33, StreamTail: 16})
	got := hammer(t, s, writers, perWriter)

	seen := map[uint64]bool{}
	for w, ss := range got {
		for i, seq := range ss {
			if seen[seq] {
				t.Fatalf("Seq %d given twice", seq)
			}
			seen[seq] = true
			if i > 0 && seq <= ss[i-1] {
				t.Fatalf("writer %d: Seq went from %d to %d", w, ss[i-1], seq)
			}
		}
	}
	st := s.Stats()
	const streamChunks = writers * perWriter / 4
	// Three chunks of 11 bytes carry each stream's 33-byte head and are held.
	if st.TotalFrames != writers*perWriter || st.Aggregated != streamChunks-writers*3 || st.Frames != writers*perWriter-int(st.Aggregated) {
		t.Fatalf("Stats = %+v", st)
	}
	for i, f := range s.Window(1, st.Frames) {
		if f.Seq != uint64(i+1) {
			t.Fatalf("position %d holds Seq %d", i, f.Seq)
		}
		if f.Chan.Kind == Control && !seen[f.Seq] {
			t.Fatalf("Seq %d held but never returned", f.Seq)
		}
	}
	for _, ss := range s.Streams() {
		tail := string(s.StreamTail(ss.Key))
		if ss.Chunks != perWriter/4 || ss.Bytes != 11*perWriter/4 || ss.State != StreamDone || tail != "bytes"+"chunk-bytes" {
			t.Fatalf("stream %+v tail %q", ss, tail)
		}
	}
}

func TestConcurrentAppendWithEviction(t *testing.T) {
	s := NewStore(Config{MaxFrames: 500, MaxBytes: 1 << 20})
	hammer(t, s, 8, 3000)
	st := s.Stats()
	if st.Frames != 500 || st.LastSeq-st.FirstSeq+1 != 500 || st.RawBytes+st.DecodedBytes+st.MetaBytes > 1<<20 {
		t.Fatalf("Stats = %+v", st)
	}
	var held cost
	for _, f := range s.Window(st.FirstSeq, 500) {
		held.add(weight(f), 1)
	}
	if held.raw != st.RawBytes || held.meta != st.MetaBytes {
		t.Fatalf("held frames carry %d bytes and %d of metadata, Stats says %d and %d", held.raw, held.meta, st.RawBytes, st.MetaBytes)
	}
}
