package sse

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// fuzzLimits are small so the fuzzer reaches them.
var fuzzLimits = Limits{MaxLine: 64, MaxEvent: 256}

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"data: hi\n\n", "\xEF\xBB\xBFdata: a\r\n\r\n", "id: 1\rdata\r\r", ": hb\n\nevent: x\ndata: y",
		"retry: 12\nid: a\x00b\n\n", "data:" + strings.Repeat("z", 80) + "\n\n", "\r\n\r\n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		want, wantErr := readAll(strings.NewReader(in), fuzzLimits)
		checkSpans(t, in, want)
		step := max(1, len(in)/64)
		for k := 0; k <= len(in); k += step {
			got, err := readAll(io.MultiReader(strings.NewReader(in[:k]), strings.NewReader(in[k:])), fuzzLimits)
			if !sameEvents(in, got, want) || errText(err) != errText(wantErr) {
				t.Fatalf("split at %d:\n got %+v %v\nwant %+v %v", k, got, err, want, wantErr)
			}
		}
		got, err := readAll(iotest.OneByteReader(strings.NewReader(in)), fuzzLimits)
		if !sameEvents(in, got, want) || errText(err) != errText(wantErr) {
			t.Fatalf("one byte at a time:\n got %+v %v\nwant %+v %v", got, err, want, wantErr)
		}
	})
}

// checkSpans checks that every event lies inside in, after the one before.
func checkSpans(t *testing.T, in string, evs []Event) {
	t.Helper()
	var end int64
	for i, ev := range evs {
		if ev.Offset < end || ev.Length <= 0 || ev.Offset+ev.Length > int64(len(in)) {
			t.Fatalf("event %d span %d+%d, previous ends at %d, input %d bytes", i, ev.Offset, ev.Length, end, len(in))
		}
		end = ev.Offset + ev.Length
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
