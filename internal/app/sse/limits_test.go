package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReaderLineLimit(t *testing.T) {
	src := &counting{r: io.MultiReader(strings.NewReader("data: ok\n\ndata: "), &repeat{s: "x"})}
	r := NewReader(src, Limits{MaxLine: 1 << 20, MaxEvent: 1 << 30})
	if ev, err := r.Next(); err != nil || ev.Data() != "ok" {
		t.Fatalf("first event = %+v, %v", ev, err)
	}
	_, err := r.Next()
	var lim *LimitError
	if !errors.As(err, &lim) || !errors.Is(err, ErrLimit) || lim.Limit != "line" || lim.Offset != 10 {
		t.Fatalf("err = %v, want the line limit at offset 10", err)
	}
	if want := "sse: the line at offset 10 exceeds the 1048576-byte line limit"; err.Error() != want {
		t.Fatalf("err = %q, want %q", err, want)
	}
	if src.n > 1<<20+2*readSize {
		t.Fatalf("read %d bytes past a 1 MiB line limit", src.n)
	}
	if _, again := r.Next(); again != err {
		t.Fatalf("second Next = %v, want the same error", again)
	}
}

// TestReaderEventLimit reads a 2 GB event of short lines: it fails at the
// limit, having read no more than the limit and a buffer.
func TestReaderEventLimit(t *testing.T) {
	const max = 1 << 20
	line := "data: " + strings.Repeat("y", 100) + "\n"
	src := io.LimitReader(&repeat{s: "id: 1\n" + line}, 2<<30)
	counted := &counting{r: src}
	r := NewReader(counted, Limits{MaxEvent: max})
	_, err := r.Next()
	var lim *LimitError
	if !errors.As(err, &lim) || lim.Limit != "event" || lim.Offset != 0 || lim.Max != max {
		t.Fatalf("err = %v, want the event limit at offset 0", err)
	}
	if counted.n > max+2*readSize {
		t.Fatalf("read %d bytes past a %d-byte event limit", counted.n, max)
	}
}

func TestReaderEventLimitCountsComments(t *testing.T) {
	_, err := readAll(strings.NewReader(strings.Repeat(": hb\n", 100)+"\n"), Limits{MaxEvent: 64})
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want the event limit", err)
	}
	// Blocks of heartbeats each end at their blank line: no limit.
	evs, err := readAll(strings.NewReader(strings.Repeat(": hb\n\n", 100)), Limits{MaxEvent: 64})
	if err != nil || len(evs) != 100 {
		t.Fatalf("%d events, err %v", len(evs), err)
	}
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	in := io.MultiReader(strings.NewReader("data: a\n\ndata: b"), &failing{err: boom})
	evs, err := readAll(in, Limits{})
	var cut *CutError
	if !errors.As(err, &cut) || !errors.Is(err, boom) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want a cut event caused by the reset", err)
	}
	if len(evs) != 2 || evs[1].Data() != "b" || evs[1].Dispatch || cut.Offset != 9 || cut.Length != 7 {
		t.Fatalf("events %+v, cut %+v", evs, cut)
	}
	_, err = readAll(io.MultiReader(strings.NewReader("data: a\n\n"), &failing{err: boom}), Limits{})
	if !errors.Is(err, boom) || errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want the reset between events", err)
	}
}

func TestReaderLastEventID(t *testing.T) {
	r := NewReader(strings.NewReader("id: 1\ndata: a\n\nid: 2\ndata: b"), Limits{})
	if _, err := r.Next(); err != nil || r.LastEventID() != "1" {
		t.Fatalf("after the first event: %q, %v", r.LastEventID(), err)
	}
	ev, err := r.Next()
	if !errors.Is(err, io.ErrUnexpectedEOF) || ev.ID != "2" || r.LastEventID() != "1" {
		t.Fatalf("a cut event must not move the last event ID: %+v %q %v", ev, r.LastEventID(), err)
	}
}

// repeat repeats s forever.
type repeat struct {
	s string
	i int
}

func (r *repeat) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.s[r.i:])
		n += c
		r.i = (r.i + c) % len(r.s)
	}
	return n, nil
}

type counting struct {
	r io.Reader
	n int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type failing struct{ err error }

func (f *failing) Read([]byte) (int, error) { return 0, f.err }

// TestReaderEventLimitBlankCRLF: the LF of the blank CR LF that ends an
// event does not count toward MaxEvent, so an event that fits up to that
// CR is read whether or not the LF arrives in the same read.
func TestReaderEventLimitBlankCRLF(t *testing.T) {
	in := "data: " + strings.Repeat("x", 248) + "\n\r\n" // 255 bytes and the blank line's CR: 256
	for name, src := range map[string]io.Reader{
		"whole": strings.NewReader(in),
		"split": io.MultiReader(strings.NewReader(in[:len(in)-1]), strings.NewReader(in[len(in)-1:])),
	} {
		evs, err := readAll(src, Limits{MaxEvent: 256})
		if err != nil || len(evs) != 1 || !evs[0].Dispatch {
			t.Fatalf("%s: %d events, err %v", name, len(evs), err)
		}
	}
}
