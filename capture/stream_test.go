package capture

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// payload returns n pseudo-random bytes, the same for the same seed.
func payload(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return p
}

// feed appends p to s as the chunks of one stream, sizes drawn from sizes in
// turn, one chunk every step from t0. It returns the number of chunks.
func feed(s *Store, key StreamKey, p []byte, sizes []int, t0 time.Time, step time.Duration) int {
	n := 0
	for off := 0; off < len(p); n++ {
		size := min(sizes[n%len(sizes)], len(p)-off)
		s.Append(chunk(key, n == 0, n, p[off:off+size], t0.Add(time.Duration(n)*step)))
		off += size
	}
	return n
}

func TestStreamHeadAndTailAfterManyChunks(t *testing.T) {
	cases := []struct {
		name       string
		head, tail int
		total      int
		sizes      []int
	}{
		{"default bounds, 64 KiB chunks", 0, 0, 5<<20 + 12345, []int{64 << 10}},
		{"odd bounds, mixed chunks", 1000, 777, 300_001, []int{1, 7, 999, 1000, 1001, 3, 4096, 776, 778}},
		{"chunks larger than head and tail", 100, 50, 100_000, []int{3000, 1, 5000}},
		{"one-byte chunks", 40, 30, 5_000, []int{1}},
		{"shorter than head plus tail", 4096, 4096, 5000, []int{600}},
		{"shorter than the tail", 4096, 4096, 300, []int{7}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(Config{StreamHead: tc.head, StreamTail: tc.tail})
			cfg := s.Config()
			key := StreamKey{Conn: "wt", ReqID: 42, Tag: 1}
			p := payload(uint64(i), tc.total)
			chunks := feed(s, key, p, tc.sizes, time.Unix(1000, 0), time.Millisecond)
			if got, want := s.StreamHead(key), p[:min(cfg.StreamHead, len(p))]; !bytes.Equal(got, want) {
				t.Fatalf("head: %d bytes differ from the first %d payload bytes", len(got), len(want))
			}
			if got, want := s.StreamTail(key), p[len(p)-min(cfg.StreamTail, len(p)):]; !bytes.Equal(got, want) {
				t.Fatalf("tail: %d bytes differ from the last %d payload bytes", len(got), len(want))
			}
			st, ok := s.Stream(key)
			if !ok || st.Bytes != int64(len(p)) || st.Chunks != int64(chunks) {
				t.Fatalf("Stream = %+v, %v; want %d bytes in %d chunks", st, ok, len(p), chunks)
			}
			if st.HeadLen != min(cfg.StreamHead, len(p)) || st.TailLen != min(cfg.StreamTail, len(p)) {
				t.Fatalf("HeadLen %d TailLen %d", st.HeadLen, st.TailLen)
			}
		})
	}
}

func TestStreamStats(t *testing.T) {
	s := NewStore(Config{StreamHead: 1000, StreamTail: 1000})
	s.Append(control(0, 20))
	key := StreamKey{Conn: "wt", ReqID: 7, Tag: 2}
	t0 := time.Unix(5000, 0)
	p := payload(9, 100*300)
	chunks := feed(s, key, p, []int{300}, t0, 10*time.Millisecond)
	s.Append(control(1, 20))

	st, _ := s.Stream(key)
	wantLast := t0.Add(99 * 10 * time.Millisecond)
	if chunks != 100 || st.Chunks != 100 || st.Bytes != 30_000 || !st.First.Equal(t0) || !st.Last.Equal(wantLast) {
		t.Fatalf("Stream = %+v", st)
	}
	if want := 30_000 / 0.99; st.Rate < want-1e-6 || st.Rate > want+1e-6 || st.Elapsed() != 990*time.Millisecond {
		t.Fatalf("Rate = %f, Elapsed = %v; want %f, 990ms", st.Rate, st.Elapsed(), want)
	}
	if st.State != StreamOpen || st.Size != -1 || st.Dir != In {
		t.Fatalf("State %v Size %d Dir %v", st.State, st.Size, st.Dir)
	}
	// Chunks carrying the first 1000 payload bytes are held: 4 of 300 bytes.
	if st.Frames != 4 || st.FirstSeq != 2 {
		t.Fatalf("Frames = %d, FirstSeq = %d; want 4, 2", st.Frames, st.FirstSeq)
	}
	held := s.Window(1, 100)
	if got := seqs(held); !slices.Equal(got, seqRange(1, 6)) {
		t.Fatalf("held frames %v", got)
	}
	if f := held[1]; f.Chan.Kind != Stream || !bytes.Equal(f.Raw[8:], p[:300]) {
		t.Fatal("the stream's first chunk is not held with its header")
	}
	if f := held[5]; f.Chan.Kind != Control || !bytes.HasPrefix(f.Raw, []byte("#1;")) {
		t.Fatal("the control frame after the stream does not follow its head chunks")
	}
	stats := s.Stats()
	if stats.Aggregated != 96 || stats.TotalFrames != 102 || stats.Streams != 1 {
		t.Fatalf("Stats = %+v", stats)
	}

	s.SetStreamSize(key, 30_000)
	boom := errors.New("disk full")
	s.MarkStream(key, StreamError, boom)
	st, _ = s.Stream(key)
	if st.Size != 30_000 || st.State != StreamError || !errors.Is(st.Err, boom) || st.Ended.IsZero() {
		t.Fatalf("after marks: %+v", st)
	}
	if StreamDone.String() != "done" || StreamReset.String() != "reset" || StreamState(9).String() != "unknown" {
		t.Fatal("StreamState names")
	}
}

func TestMarkUnknownStreamCreatesIt(t *testing.T) {
	s := NewStore(Config{})
	key := StreamKey{Conn: "wt", ReqID: 999, Tag: 3}
	if _, ok := s.Stream(key); ok || s.StreamHead(key) != nil || s.StreamTail(key) != nil {
		t.Fatal("an unknown stream was found")
	}
	s.MarkStream(key, StreamReset, errors.New("injected"))
	st, ok := s.Stream(key)
	if !ok || st.State != StreamReset || st.Chunks != 0 || st.Elapsed() != 0 {
		t.Fatalf("Stream = %+v, %v", st, ok)
	}
	other := StreamKey{Conn: "wt", ReqID: 1, Tag: 1}
	s.Append(chunk(other, true, 0, []byte("x"), time.Now()))
	if got := s.Streams(); len(got) != 2 || got[0].Key != key || got[1].Key != other {
		t.Fatalf("Streams = %+v, want creation order", got)
	}
}

func TestStreamsForgottenPastMax(t *testing.T) {
	s := NewStore(Config{MaxStreams: 3})
	keys := []StreamKey{{Conn: "a"}, {Conn: "b"}, {Conn: "c"}}
	for _, k := range keys {
		s.Append(chunk(k, true, 0, []byte("data"), time.Now()))
	}
	s.MarkStream(keys[1], StreamDone, nil)
	s.Append(chunk(keys[0], false, 1, []byte("more"), time.Now()))
	s.Append(chunk(StreamKey{Conn: "d"}, true, 0, []byte("new"), time.Now()))
	if _, ok := s.Stream(keys[1]); ok {
		t.Fatal("the finished stream b was kept over open ones")
	}
	s.Append(chunk(StreamKey{Conn: "e"}, true, 0, []byte("new"), time.Now()))
	if _, ok := s.Stream(keys[2]); ok {
		t.Fatal("with none finished, the least recently active stream c should go")
	}
	if st := s.Stats(); st.Streams != 3 || st.Forgotten != 2 {
		t.Fatalf("Stats = %+v", st)
	}
}

func TestStreamPayloadFromFields(t *testing.T) {
	raw := []byte("HHHHbodyTTbody2")
	cases := []struct {
		name   string
		fields []proto.Field
		want   string
	}{
		{"no fields: all of Raw", nil, string(raw)},
		{"header only: after the header", []proto.Field{{Offset: 0, Len: 4, Kind: proto.FieldHeader}}, "bodyTTbody2"},
		{"body ranges in order", []proto.Field{
			{Offset: 0, Len: 4, Kind: proto.FieldHeader},
			{Offset: 4, Len: 4, Kind: proto.FieldBody},
			{Offset: 10, Len: 5, Kind: proto.FieldBody},
		}, "bodybody2"},
		{"ranges clipped, nonsense ignored", []proto.Field{
			{Offset: -3, Len: 9, Kind: proto.FieldBody},
			{Offset: 10, Len: 1 << 30, Kind: proto.FieldBody},
			{Offset: 99, Len: 1, Kind: proto.FieldBody},
			{Offset: 2, Len: -1, Kind: proto.FieldBody},
		}, "body2"},
	}
	for _, tc := range cases {
		var got []byte
		ForEachPayload(&Frame{Raw: raw, Fields: tc.fields}, func(p []byte) { got = append(got, p...) })
		if string(got) != tc.want {
			t.Errorf("%s: payload %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestTailRingMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, limit := range []int{1, 2, 5, 64, 1000} {
		ring := TailRing{limit: limit}
		var all []byte
		for range 2000 {
			p := payload(r.Uint64(), r.IntN(3*limit+2))
			_, _ = ring.Write(p)
			all = append(all, p...)
			if want := all[len(all)-min(limit, len(all)):]; !bytes.Equal(ring.Bytes(), want) {
				t.Fatalf("limit %d after %d bytes: tail differs", limit, len(all))
			}
			if cap(ring.buf) > limit {
				t.Fatalf("limit %d: ring grew to %d", limit, cap(ring.buf))
			}
		}
	}
}
