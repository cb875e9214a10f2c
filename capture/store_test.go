package capture

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	want := Config{MaxFrames: 1_000_000, MaxBytes: 256 << 20, StreamHead: 64 << 10, StreamTail: 64 << 10, MaxStreams: 256, MaxSSEStreams: 256, FrameHead: 64 << 20}
	if c.Clock == nil {
		t.Fatal("DefaultConfig() has no clock")
	}
	c.Clock = nil
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("DefaultConfig() = %+v, want %+v", c, want)
	}
	if got := NewStore(Config{MaxBytes: 2}).Config().FrameHead; got != 1 {
		t.Fatalf("FrameHead for a 2-byte budget = %d, want 1", got)
	}
	if got := NewStore(Config{MaxBytes: 100, FrameHead: 500}).Config().FrameHead; got != 100 {
		t.Fatalf("FrameHead above the budget = %d, want it clamped to 100", got)
	}
}

func TestAppendSequencing(t *testing.T) {
	s := NewStore(Config{})
	if s.Append(nil) != 0 {
		t.Fatal("Append(nil) returned a Seq")
	}
	var frames []*Frame
	for i := range 10 {
		f := control(i, 50)
		if seq := s.Append(f); seq != uint64(i+1) || f.Seq != seq {
			t.Fatalf("frame %d: Append = %d, f.Seq = %d, want %d", i, seq, f.Seq, i+1)
		}
		if f.Kept != 50 || f.Time.IsZero() {
			t.Fatalf("frame %d: Kept = %d, Time zero = %v", i, f.Kept, f.Time.IsZero())
		}
		frames = append(frames, f)
	}
	if s.Len() != 10 {
		t.Fatalf("Len = %d, want 10", s.Len())
	}
	for _, f := range frames {
		if g, ok := s.Get(f.Seq); !ok || g != f {
			t.Fatalf("Get(%d) = %v, %v", f.Seq, g, ok)
		}
	}
	for _, seq := range []uint64{0, 11} {
		if _, ok := s.Get(seq); ok {
			t.Fatalf("Get(%d) found a frame", seq)
		}
	}
	if got := seqs(s.Window(3, 4)); !slices.Equal(got, []uint64{3, 4, 5, 6}) {
		t.Fatalf("Window(3, 4) = %v", got)
	}
	if got := seqs(s.Window(8, 100)); !slices.Equal(got, []uint64{8, 9, 10}) {
		t.Fatalf("Window(8, 100) = %v", got)
	}
	if s.Window(11, 5) != nil || s.Window(1, 0) != nil {
		t.Fatal("an empty window returned frames")
	}
	if got := seqs(s.Last(3)); !slices.Equal(got, []uint64{8, 9, 10}) {
		t.Fatalf("Last(3) = %v", got)
	}
	if got := seqs(s.Last(50)); !slices.Equal(got, seqRange(1, 10)) {
		t.Fatalf("Last(50) = %v", got)
	}
	st := s.Stats()
	if st.Frames != 10 || st.FirstSeq != 1 || st.LastSeq != 10 || st.TotalFrames != 10 || st.TotalBytes != 500 || st.RawBytes != 500 || st.DroppedBytes != 0 {
		t.Fatalf("Stats = %+v", st)
	}
}

func TestSizeIsAtLeastRaw(t *testing.T) {
	s := NewStore(Config{})
	f := &Frame{Raw: []byte("abc")}
	s.Append(f)
	if f.Size != 3 || f.Kept != 3 {
		t.Fatalf("Size = %d, Kept = %d, want 3, 3", f.Size, f.Kept)
	}
	short := &Frame{Raw: []byte("ab"), Size: 10}
	s.Append(short)
	if short.Size != 10 || short.Kept != 2 {
		t.Fatalf("a frame the transport cut: Size = %d, Kept = %d, want 10, 2", short.Size, short.Kept)
	}
	if st := s.Stats(); st.TotalBytes != 13 || st.DroppedBytes != 8 {
		t.Fatalf("Stats = %+v, want TotalBytes 13, DroppedBytes 8", st)
	}
}

func TestEvictionByCount(t *testing.T) {
	s := NewStore(Config{MaxFrames: 100})
	for i := range 250 {
		s.Append(control(i, 10))
	}
	st := s.Stats()
	if s.Len() != 100 || st.Frames != 100 || st.FirstSeq != 151 || st.LastSeq != 250 || st.Evicted != 150 {
		t.Fatalf("Len = %d, Stats = %+v", s.Len(), st)
	}
	if st.RawBytes != 1000 || st.DroppedBytes != 1500 {
		t.Fatalf("RawBytes = %d, DroppedBytes = %d, want 1000, 1500", st.RawBytes, st.DroppedBytes)
	}
	if _, ok := s.Get(150); ok {
		t.Fatal("evicted frame 150 is still there")
	}
	if f, ok := s.Get(151); !ok || !bytes.HasPrefix(f.Raw, []byte("#150;")) {
		t.Fatalf("Get(151) = %v, %v", f, ok)
	}
	if got := seqs(s.Window(1, 10)); !slices.Equal(got, seqRange(151, 160)) {
		t.Fatalf("Window(1, 10) after eviction = %v", got)
	}
	// The ring wraps at slot 100: seq 200 is in the last slot, 201 in the first.
	if got := seqs(s.Window(195, 10)); !slices.Equal(got, seqRange(195, 204)) {
		t.Fatalf("Window across the wrap = %v", got)
	}
	if got := seqs(s.Last(100)); !slices.Equal(got, seqRange(151, 250)) {
		t.Fatalf("Last(100) = %v", got)
	}
	for _, f := range s.Window(151, 100) {
		if want := []byte("#" + itoa(int(f.Seq)-1) + ";"); !bytes.HasPrefix(f.Raw, want) {
			t.Fatalf("frame %d holds %q", f.Seq, f.Raw[:8])
		}
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestByteBudgetStripsOldestFirst(t *testing.T) {
	frame := func(i int) *Frame {
		f := control(i, 1000)
		id := jsonrpc.IntID(int64(i))
		f.Msg = &jsonrpc.Message{JSONRPC: "2.0", ID: &id, Result: json.RawMessage(`{"a":1}`), Raw: f.Raw}
		return f
	}
	budget := 10_000 + 25*weight(frame(0)).meta // the metadata of 25 frames and 10 of their bytes
	s := NewStore(Config{MaxBytes: budget})
	for i := range 25 {
		s.Append(frame(i))
	}
	st := s.Stats()
	if st.Frames != 25 || st.RawBytes+st.DecodedBytes+st.MetaBytes > budget || st.RawBytes+st.DecodedBytes < 9_000 {
		t.Fatalf("Stats = %+v: want 25 frames within %d bytes", st, budget)
	}
	all := s.Window(1, 25)
	var firstKept int
	for i, f := range all {
		if f.Kept > 0 {
			firstKept = i
			break
		}
	}
	if firstKept == 0 {
		t.Fatal("no frame lost its bytes")
	}
	for i, f := range all {
		if i < firstKept {
			if f.Raw != nil || f.Kept != 0 || f.Size != 1000 {
				t.Fatalf("stripped frame %d: len(Raw) = %d, Kept = %d, Size = %d", f.Seq, len(f.Raw), f.Kept, f.Size)
			}
			if f.Msg.Kind() != jsonrpc.KindResult || f.Msg.ID == nil || f.Msg.Raw != nil || decodedBytes(f.Msg) != 0 {
				t.Fatalf("stripped frame %d: Msg = %+v, want a light result with its id", f.Seq, f.Msg)
			}
			continue
		}
		if f.Kept != 1000 || len(f.Raw) != 1000 {
			t.Fatalf("frame %d after the first kept one lost bytes: Kept = %d", f.Seq, f.Kept)
		}
	}
	if room := budget - st.MetaBytes; int64(25-firstKept)*1007 > room || int64(26-firstKept)*1007 <= room {
		t.Fatalf("%d frames keep their bytes: the budget is not used fully or overrun", 25-firstKept)
	}
	if st.Stripped != uint64(firstKept) || st.DroppedBytes != int64(firstKept)*1000 {
		t.Fatalf("Stripped = %d, DroppedBytes = %d, want %d, %d", st.Stripped, st.DroppedBytes, firstKept, firstKept*1000)
	}
}

func TestHugeFrameKeepsBoundedHead(t *testing.T) {
	const budget, huge = 1 << 20, 64 << 20
	s := NewStore(Config{MaxBytes: budget})
	s.Append(control(0, 100))
	raw := make([]byte, huge)
	for i := range raw {
		raw[i] = byte(i * 7)
	}
	msg := &jsonrpc.Message{JSONRPC: "2.0", Method: "tools/call", Params: json.RawMessage(raw[:huge/2]), Raw: raw}
	f := &Frame{Conn: "c", Raw: raw, Size: huge, Msg: msg, Fields: []proto.Field{
		{Offset: 0, Len: 4, Kind: proto.FieldHeader}, {Offset: 4, Len: huge - 4, Kind: proto.FieldBody}, {Offset: huge - 1, Len: 1, Kind: proto.FieldDelimiter},
	}}
	seq := s.Append(f)
	head := s.Config().FrameHead
	if seq != 2 || f.Kept != head || len(f.Raw) != head || cap(f.Raw) > head+64 || f.Size != huge {
		t.Fatalf("Seq %d, Kept %d, len %d, cap %d, Size %d: want a %d-byte copy of the head", seq, f.Kept, len(f.Raw), cap(f.Raw), f.Size, head)
	}
	if !bytes.Equal(f.Raw, raw[:head]) {
		t.Fatal("the kept head differs from the frame's first bytes")
	}
	if f.Msg == msg || f.Msg.Method != "tools/call" || f.Msg.Params != nil || f.Msg.Raw != nil {
		t.Fatalf("Msg = %+v, want a light copy that keeps the method", f.Msg)
	}
	if msg.Params == nil {
		t.Fatal("the caller's message was changed")
	}
	if len(f.Fields) != 2 {
		t.Fatalf("Fields = %+v, want the two starting in the kept head", f.Fields)
	}
	st := s.Stats()
	if st.RawBytes+st.DecodedBytes > budget || st.Truncated != 1 || st.TotalBytes != huge+100 || st.DroppedBytes != huge+100-st.RawBytes {
		t.Fatalf("Stats = %+v", st)
	}
}

func TestDecodedBytesCountAgainstBudget(t *testing.T) {
	frame := func(i int) *Frame {
		f := control(i, 10)
		f.Msg = &jsonrpc.Message{JSONRPC: "2.0", Method: "m", Params: bytes.Repeat([]byte("1"), 1000)}
		return f
	}
	budget := 10*weight(frame(0)).meta + 3*1010 + 5 // the metadata of 10 frames and the bytes of 3
	s := NewStore(Config{MaxBytes: budget, FrameHead: 2000})
	for i := range 10 {
		s.Append(frame(i))
	}
	st := s.Stats()
	if st.Frames != 10 || st.RawBytes+st.DecodedBytes+st.MetaBytes > budget || st.DecodedBytes != 3000 {
		t.Fatalf("Stats = %+v: want three messages' params held within %d bytes", st, budget)
	}
	if f, _ := s.Get(1); f.Msg.Params != nil || f.Msg.Method != "m" {
		t.Fatalf("oldest frame Msg = %+v, want its params dropped", f.Msg)
	}
}

func TestTeeAndSinkFunc(t *testing.T) {
	var order []string
	first := SinkFunc(func(*Frame) uint64 { order = append(order, "first"); return 0 })
	s := NewStore(Config{})
	var seen uint64
	after := SinkFunc(func(f *Frame) uint64 { order = append(order, "after"); seen = f.Seq; return 99 })
	sink := Tee(first, nil, s, after)
	if seq := sink.Append(control(0, 3)); seq != 1 || seen != 1 {
		t.Fatalf("Tee returned %d, the sink after the store saw Seq %d; want 1, 1", seq, seen)
	}
	if !slices.Equal(order, []string{"first", "after"}) {
		t.Fatalf("order = %v", order)
	}
	if Tee() != Discard || Tee(nil) != Discard || Tee(s) != Sink(s) {
		t.Fatal("Tee of zero or one sink should be Discard or that sink")
	}
}
