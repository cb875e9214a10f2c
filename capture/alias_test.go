package capture

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// sseNotification is one SSE event carrying a notifications/message whose
// data is a string of n bytes, as a server writes it.
func sseNotification(n int) []byte {
	return fmt.Appendf(nil, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":%q}}\n\n",
		bytes.Repeat([]byte("x"), n))
}

// decodedEvent is the frame of one SSE event as a transport reports it:
// Raw the event's bytes, Msg decoded from the data line inside them (the
// decoder hands out params as a slice of its input, not a copy).
func decodedEvent(t *testing.T, raw []byte) *Frame {
	t.Helper()
	data := raw[bytes.Index(raw, []byte("data: "))+len("data: ") : len(raw)-2]
	m, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		t.Fatal(err)
	}
	return &Frame{Dir: In, Chan: Channel{Kind: Control}, Raw: raw, Size: len(raw), Msg: m}
}

// A message decoded in place, its params a slice of the frame's Raw, costs
// its bytes once: a store whose budget holds the events' bytes keeps every
// one of them, as it would keep the same bytes undecoded.
func TestParamsInsideRawCountedOnce(t *testing.T) {
	const events, size = 40, 64 << 10
	frames := make([]*Frame, events)
	var budget int64
	for i := range frames {
		frames[i] = decodedEvent(t, sseNotification(size))
		budget += int64(len(frames[i].Raw)) + weight(frames[i]).meta
	}
	if w := weight(frames[0]); w.decoded != 0 {
		t.Fatalf("an event's params, a slice of its Raw, weigh %d more bytes; want 0", w.decoded)
	}
	s := NewStore(Config{MaxBytes: budget})
	for _, f := range frames {
		s.Append(f)
	}
	st := s.Stats()
	if st.Stripped != 0 || st.Evicted != 0 || st.RawBytes != st.TotalBytes || st.DecodedBytes != 0 {
		t.Fatalf("Stats = %+v: want all %d events held with their bytes within %d", st, events, budget)
	}
	for seq := uint64(1); seq <= events; seq++ {
		if f, _ := s.Get(seq); f.Kept != len(f.Raw) || f.Msg.Params == nil {
			t.Fatalf("frame %d kept %d of %d bytes, params %d", seq, f.Kept, f.Size, len(f.Msg.Params))
		}
	}
}

// Params that are a copy, or lie only partly inside Raw, still count
// against the budget: the store's bound holds whatever a decoder does.
func TestParamsBesideRawCounted(t *testing.T) {
	event := sseNotification(1000)
	backing := append(bytes.Clone(event), bytes.Repeat([]byte(" "), 200)...)
	f := decodedEvent(t, backing[:len(event)]) // Raw's capacity goes past its bytes
	if got := weight(f).decoded; got != 0 {
		t.Errorf("params inside Raw weigh %d, want 0", got)
	}
	n := len(event)
	for name, params := range map[string][]byte{
		"a copy":            bytes.Clone(f.Msg.Params),
		"past Raw's end":    backing[n : n+100],
		"across Raw's end":  backing[n-50 : n+50],
		"longer than Raw":   backing[:n+1],
		"before Raw starts": backing[:10],
	} {
		if name == "before Raw starts" {
			g := decodedEvent(t, backing[10:n])
			g.Msg.Params = params
			if got := weight(g).decoded; got != 10 {
				t.Errorf("%s: params weigh %d, want 10", name, got)
			}
			continue
		}
		g := *f
		m := *f.Msg
		m.Params = params
		g.Msg = &m
		if got, want := weight(&g).decoded, int64(len(params)); got != want {
			t.Errorf("%s: params weigh %d, want %d", name, got, want)
		}
	}
	held := weight(decodedEvent(t, sseNotification(1000))) // in place: its bytes once
	s := NewStore(Config{MaxBytes: 3 * held.total(), FrameHead: 4 * n})
	for range 3 {
		g := decodedEvent(t, sseNotification(1000))
		g.Msg.Params = bytes.Clone(g.Msg.Params) // a decoder that copies
		s.Append(g)
	}
	if st := s.Stats(); st.RawBytes+st.DecodedBytes+st.MetaBytes > s.Config().MaxBytes || st.Stripped == 0 {
		t.Fatalf("Stats = %+v: copied params must count against the budget", st)
	}
}

// A result decoded in place early in a large frame costs the frame's bytes
// once: the capacity of its slice, which runs on to the end of Raw, is
// not counted again as spare room beside them.
func TestResultInsideRawSpareNotCounted(t *testing.T) {
	raw := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"result":{},"pad":%q}`, bytes.Repeat([]byte("x"), 1<<20))
	raw = raw[:len(raw):len(raw)] // Raw's own room is not what is weighed here
	m, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		t.Fatal(err)
	}
	if copied(m.Result, raw) != 0 {
		t.Fatalf("the decoder copied the result: the test needs one that slices its input")
	}
	f := &Frame{Dir: In, Chan: Channel{Kind: Control}, Raw: raw, Size: len(raw), Msg: m}
	w := weight(f)
	if w.decoded != 0 || w.meta > 4<<10 {
		t.Fatalf("a %d-byte frame whose result lies in its bytes weighs %+v: want its bytes once and a few hundred bytes of metadata", len(raw), w)
	}
	c := *f
	mc := *m
	mc.Result = append(make([]byte, 0, 1<<20), m.Result...) // a copy with room to spare
	c.Msg = &mc
	if got := weight(&c).meta; got < 1<<20-64 {
		t.Fatalf("a copied result's spare room weighs %d, want about 1 MiB", got)
	}
}
