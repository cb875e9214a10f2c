package sse

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every event of r; a cut event comes last with its error.
func readAll(r io.Reader, lim Limits) ([]Event, error) {
	sr := NewReader(r, lim)
	var evs []Event
	for {
		ev, err := sr.Next()
		if err != nil {
			var cut *CutError
			if errors.As(err, &cut) {
				evs = append(evs, ev.Clone())
			}
			if errors.Is(err, io.EOF) {
				return evs, nil
			}
			return evs, err
		}
		evs = append(evs, ev.Clone()) // Raw and DataBytes are valid until the next Next
	}
}

// readers are the ways a stream may arrive: whole, a byte at a time, in
// halves.
var readers = map[string]func(string) io.Reader{
	"whole":   func(s string) io.Reader { return strings.NewReader(s) },
	"onebyte": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
	"half":    func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
	"dataerr": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
}

// ev is a dispatched event of the given data at off, n.
func ev(data string, off, n int64) Event {
	return Event{DataBytes: []byte(data), Dispatch: true, Offset: off, Length: n}
}

func TestReaderStandard(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Event
		cut  bool // the stream ends in a cut event
	}{
		{"one event LF", "data: hi\n\n", []Event{ev("hi", 0, 10)}, false},
		{"multi-line data", "data: a\ndata: b\ndata\ndata:\n\n",
			[]Event{ev("a\nb\n\n", 0, 28)}, false},
		{"CRLF", "data: a\r\ndata: b\r\n\r\n", []Event{ev("a\nb", 0, 20)}, false},
		{"CR", "data: a\rdata: b\r\r", []Event{ev("a\nb", 0, 17)}, false},
		{"mixed line ends", "data: a\rdata: b\ndata: c\r\n\r" + "data: d\n\r\n",
			[]Event{ev("a\nb\nc", 0, 26), ev("d", 26, 10)}, false},
		{"CR then blank CR LF is one blank line", "data: a\r\r\n\r\n",
			[]Event{ev("a", 0, 10)}, false},
		{"BOM skipped once", "\xEF\xBB\xBFdata: a\n\n\xEF\xBB\xBFdata: b\n\n",
			[]Event{ev("a", 3, 9), {Offset: 12, Length: 12}}, false}, // the second BOM is part of a name
		{"comments before an event", ": heartbeat\n:x\ndata: a\n\n",
			[]Event{{DataBytes: []byte("a"), Dispatch: true, Comments: []string{"heartbeat", "x"}, Offset: 0, Length: 24}}, false},
		{"comments alone", ": heartbeat\n\n: heartbeat\n\n", []Event{
			{Comments: []string{"heartbeat"}, Offset: 0, Length: 13},
			{Comments: []string{"heartbeat"}, Offset: 13, Length: 13}}, false},
		{"event type", "event: result\ndata: {}\n\nevent: complete\ndata: {}\n\n", []Event{
			{Type: "result", DataBytes: []byte("{}"), Dispatch: true, Offset: 0, Length: 24},
			{Type: "complete", DataBytes: []byte("{}"), Dispatch: true, Offset: 24, Length: 26}}, false},
		{"retry digits", "retry: 1500\ndata: a\n\n",
			[]Event{{DataBytes: []byte("a"), Dispatch: true, Retry: 1500, HasRetry: true, Length: 21}}, false},
		{"retry not digits ignored", "retry: 15s\nretry: -1\nretry:\nretry: 1 \ndata: a\n\n",
			[]Event{ev("a", 0, 47)}, false},
		{"retry saturates", "retry: 99999999999999999999999\n\n",
			[]Event{{Retry: 1<<63 - 1, HasRetry: true, Length: 32}}, false},
		{"id inherited", "id: 7\ndata: a\n\ndata: b\n\n", []Event{
			{ID: "7", DataBytes: []byte("a"), Dispatch: true, Length: 15},
			{ID: "7", DataBytes: []byte("b"), Dispatch: true, Offset: 15, Length: 9}}, false},
		{"id with NUL ignored", "id: 7\ndata: a\n\nid: 8\x009\ndata: b\n\n", []Event{
			{ID: "7", DataBytes: []byte("a"), Dispatch: true, Length: 15},
			{ID: "7", DataBytes: []byte("b"), Dispatch: true, Offset: 15, Length: 17}}, false},
		{"empty id resets", "id: 7\ndata: a\n\nid\ndata: b\n\nid: 9\n\nid:\n\n", []Event{
			{ID: "7", DataBytes: []byte("a"), Dispatch: true, Length: 15},
			{ID: "", DataBytes: []byte("b"), Dispatch: true, Offset: 15, Length: 12},
			{ID: "9", Offset: 27, Length: 7},
			{ID: "", Offset: 34, Length: 5}}, false},
		{"priming event: id and no data", "id: p1\n\ndata: a\n\n", []Event{
			{ID: "p1", Length: 8},
			{ID: "p1", DataBytes: []byte("a"), Dispatch: true, Offset: 8, Length: 9}}, false},
		{"empty data line is dispatched", "data\n\n", []Event{ev("", 0, 6)}, false},
		{"unknown field ignored", "foo: bar\ndata: a\nDATA: b\n\n", []Event{ev("a", 0, 26)}, false},
		{"field with no colon", "event\ndata\n\n", []Event{ev("", 0, 12)}, false},
		{"one space removed, no more", "data:  a \ndata:b\nevent:   t\n\n",
			[]Event{{Type: "  t", DataBytes: []byte(" a \nb"), Dispatch: true, Length: 29}}, false},
		{"colon in value kept", "data: a: b\n\n", []Event{ev("a: b", 0, 12)}, false},
		{"blank lines between events skipped", "\n\r\n\rdata: a\n\n\n\ndata: b\n\n",
			[]Event{ev("a", 4, 9), ev("b", 15, 9)}, false},
		{"final event without blank line is cut", "data: a\n\ndata: b\n",
			[]Event{ev("a", 0, 9), {DataBytes: []byte("b"), Offset: 9, Length: 8}}, true},
		{"final line without line end is cut", "data: a\n\nid: 3\ndata: b",
			[]Event{ev("a", 0, 9), {ID: "3", DataBytes: []byte("b"), Offset: 9, Length: 13}}, true},
		{"trailing blank lines are no event", "data: a\n\n\n\r\n", []Event{ev("a", 0, 9)}, false},
		{"empty stream", "", nil, false},
	}
	for _, tc := range tests {
		for rname, mk := range readers {
			t.Run(tc.name+"/"+rname, func(t *testing.T) {
				got, err := readAll(mk(tc.in), Limits{})
				var cut *CutError
				if tc.cut {
					if !errors.As(err, &cut) || !errors.Is(err, io.ErrUnexpectedEOF) {
						t.Fatalf("err = %v, want a cut event", err)
					}
				} else if err != nil {
					t.Fatalf("err = %v", err)
				}
				if !sameEvents(tc.in, got, tc.want, DefaultMaxRaw) {
					t.Fatalf("events\n got %+v\nwant %+v", got, tc.want)
				}
				if cut != nil {
					last := tc.want[len(tc.want)-1]
					if cut.Offset != last.Offset || cut.Length != last.Length {
						t.Fatalf("cut span %d+%d, want %d+%d", cut.Offset, cut.Length, last.Offset, last.Length)
					}
				}
			})
		}
	}
}

// sameEvents compares events read from in; an event whose blank line ends
// in a CR may leave out the LF after it when that LF came in a later read.
// Raw is not compared with want: it must be in's bytes at the event's span
// (see rawOK).
func sameEvents(in string, got, want []Event, maxRaw int64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if !rawOK(in, g, maxRaw) || !dataInRawOK(g) {
			return false
		}
		g.Raw, g.RawCut, w.Raw, w.RawCut = nil, false, nil, false
		g.DataInRaw, g.DataAt, w.DataInRaw, w.DataAt = false, 0, false, 0 // whether the data lies in Raw may depend on the reads
		if g.Length == w.Length-1 && strings.HasSuffix(in[:g.Offset+w.Length], "\r\n") {
			g.Length = w.Length
		}
		if !reflect.DeepEqual(g, w) {
			return false
		}
	}
	return true
}

// dataInRawOK reports whether ev's data is in Raw at DataAt when it says
// it is there.
func dataInRawOK(ev Event) bool {
	return !ev.DataInRaw || ev.DataAt >= 0 && ev.DataAt+len(ev.DataBytes) <= len(ev.Raw) &&
		string(ev.Raw[ev.DataAt:ev.DataAt+len(ev.DataBytes)]) == string(ev.DataBytes)
}

// rawOK reports whether ev.Raw is in's bytes from ev.Offset, all
// ev.Length of them, or the first maxRaw with RawCut set when the event is
// longer.
func rawOK(in string, ev Event, maxRaw int64) bool {
	n := min(ev.Length, maxRaw)
	return ev.Offset >= 0 && ev.Offset+ev.Length <= int64(len(in)) &&
		string(ev.Raw) == in[ev.Offset:ev.Offset+n] && ev.RawCut == (ev.Length > maxRaw)
}
