package sse

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestReaderRawCut: an event past MaxRaw keeps its head in Raw, says so,
// and still has all its data, whether its bytes arrive at once or a few at
// a time (the head is then copied out of the buffer before it moves on).
func TestReaderRawCut(t *testing.T) {
	const maxRaw = 10
	in := "data: 0123456789\n\n" + // one data line, 18 bytes
		"id: 5\ndata: ab\ndata: cd\n\n" + // several lines, 25 bytes
		"data: x\n\n" + // 9 bytes: whole
		"data: tail"
	want := []struct {
		data string
		off  int64
		n    int64
	}{{"0123456789", 0, 18}, {"ab\ncd", 18, 25}, {"x", 43, 9}, {"tail", 52, 10}}
	for rname, mk := range readers {
		t.Run(rname, func(t *testing.T) {
			evs, err := readAll(mk(in), Limits{MaxRaw: maxRaw})
			if !errors.Is(err, io.ErrUnexpectedEOF) || len(evs) != len(want) {
				t.Fatalf("%d events, err %v", len(evs), err)
			}
			for i, ev := range evs {
				w := want[i]
				if ev.Data() != w.data || ev.Offset != w.off || ev.Length != w.n || !rawOK(in, ev, maxRaw) {
					t.Fatalf("event %d: data %q span %d+%d raw %q cut %v", i, ev.Data(), ev.Offset, ev.Length, ev.Raw, ev.RawCut)
				}
			}
		})
	}
}

// TestReaderRawLargeEvents reads events larger than the buffer a read
// fills, of one data line and of many, with the default MaxRaw.
func TestReaderRawLargeEvents(t *testing.T) {
	line := "data: " + strings.Repeat("x", 1000) + "\n"
	big := strings.Repeat(line, 3000) + "\n"                          // ~3 MiB of lines: cut
	long := "data: " + strings.Repeat("0123456789", 200_000) + "\n\n" // one 2 MB line: cut
	mid := "event: e\ndata: " + strings.Repeat("y", 500_000) + "\n\n" // 0.5 MB: whole
	in := big + mid + long + mid
	evs, err := readAll(inReads(in), Limits{})
	if err != nil || len(evs) != 4 {
		t.Fatalf("%d events, err %v", len(evs), err)
	}
	wantData := []string{
		strings.TrimSuffix(strings.ReplaceAll(strings.Repeat(line, 3000), "data: ", ""), "\n"),
		strings.Repeat("y", 500_000), strings.Repeat("0123456789", 200_000), strings.Repeat("y", 500_000),
	}
	for i, ev := range evs {
		if !rawOK(in, ev, DefaultMaxRaw) || ev.Data() != wantData[i] || !ev.Dispatch {
			t.Fatalf("event %d: span %d+%d, raw %d bytes, cut %v, data %d bytes", i, ev.Offset, ev.Length, len(ev.Raw), ev.RawCut, len(ev.DataBytes))
		}
	}
	if !evs[0].RawCut || !evs[2].RawCut || evs[1].RawCut || evs[3].RawCut {
		t.Fatalf("cut: %v %v %v %v", evs[0].RawCut, evs[1].RawCut, evs[2].RawCut, evs[3].RawCut)
	}
}

// inReads serves s in reads of 1000 bytes, so that events cross reads.
func inReads(s string) io.Reader { return &chunked{s: s, n: 1000} }

type chunked struct {
	s string
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[n:]
	return n, nil
}

// TestEventCloneOutlivesNext: Raw and DataBytes are views that the next
// Next reuses; a Clone keeps its own, its data a piece of its Raw when the
// event's was.
func TestEventCloneOutlivesNext(t *testing.T) {
	r := NewReader(strings.NewReader("data: first\n\ndata: other\n\n"), Limits{})
	ev, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	kept, data := ev.Clone(), ev.Data()
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if string(kept.Raw) != "data: first\n\n" || string(kept.DataBytes) != "first" || data != "first" {
		t.Fatalf("clone %q %q, data %q", kept.Raw, kept.DataBytes, data)
	}
	if ev.DataBytes = append(ev.DataBytes, '!'); string(kept.DataBytes) != "first" {
		t.Fatalf("appending to a view reached the clone")
	}
	if !kept.DataInRaw || &kept.Raw[kept.DataAt] != &kept.DataBytes[0] {
		t.Fatalf("the clone copied its data twice: in Raw and apart")
	}
	if kept.DataBytes = append(kept.DataBytes, '!'); string(kept.Raw) != "data: first\n\n" {
		t.Fatalf("appending to the clone's data reached its Raw: %q", kept.Raw)
	}
}

// TestReaderMemoryBounded reads a 64 MiB answer of 64 KiB events: what the
// parser allocates does not grow with the stream.
func TestReaderMemoryBounded(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	events, err := parseAll(io.LimitReader(&repeat{s: benchEvent}, 64<<20))
	runtime.ReadMemStats(&after)
	if err != nil || events < (64<<20)/len(benchEvent) {
		t.Fatalf("%d events, err %v", events, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Fatalf("parsing 64 MiB allocated %d bytes", got)
	}
}

// TestReaderHugeEventMemory reads a 2 GB event with the default limits: it
// fails at MaxEvent having allocated a few times MaxEvent at most.
func TestReaderHugeEventMemory(t *testing.T) {
	src := io.LimitReader(&repeat{s: "data: " + strings.Repeat("z", 100) + "\n"}, 2<<30)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := NewReader(src, Limits{}).Next()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want the event limit", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*DefaultMaxEvent {
		t.Fatalf("a 2 GB event allocated %d bytes before it failed", got)
	}
}

// TestReaderDataInPlace: the data of a one-line event is a view of the
// event's own bytes, not a copy, and the event says where it lies in them;
// data joined from two lines does not lie there.
func TestReaderDataInPlace(t *testing.T) {
	got, err := NewReader(strings.NewReader("id: 1\ndata: payload\n\n"), Limits{}).Next()
	if err != nil || got.Data() != "payload" {
		t.Fatalf("%+v %v", got, err)
	}
	if at := bytes.Index(got.Raw, []byte("payload")); at < 0 || &got.Raw[at] != &got.DataBytes[0] {
		t.Fatalf("DataBytes is a copy")
	} else if !got.DataInRaw || got.DataAt != at {
		t.Fatalf("DataInRaw %v, DataAt %d: the data is in Raw at %d", got.DataInRaw, got.DataAt, at)
	}
	two, err := NewReader(strings.NewReader("data: a\ndata: b\n\n"), Limits{}).Next()
	if err != nil || two.Data() != "a\nb" || two.DataInRaw {
		t.Fatalf("data joined from two lines: %+v %v", two, err)
	}
}

// TestReaderSmallAnswerSmallBuffer reads a one-event answer, as most
// answers to a POST are: the Reader's buffer is sized by what arrives,
// not by the largest read it makes.
func TestReaderSmallAnswerSmallBuffer(t *testing.T) {
	answer := "event: message\nid: 1\ndata: " + `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}]}}` + "\n\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	evs, err := readAll(strings.NewReader(answer), Limits{})
	runtime.ReadMemStats(&after)
	if err != nil || len(evs) != 1 {
		t.Fatalf("%d events, err %v", len(evs), err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 2*firstRead {
		t.Fatalf("reading a %d-byte answer allocated %d bytes", len(answer), got)
	}
}
