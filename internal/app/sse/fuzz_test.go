package sse

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// fuzzLimits are small so the fuzzer reaches them, and cuts Raw.
var fuzzLimits = Limits{MaxLine: 64, MaxEvent: 256, MaxRaw: 100}

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"data: hi\n\n", "\xEF\xBB\xBFdata: a\r\n\r\n", "id: 1\rdata\r\r", ": hb\n\nevent: x\ndata: y",
		"retry: 12\nid: a\x00b\n\n", "data:" + strings.Repeat("z", 80) + "\n\n", "\r\n\r\n\n",
		strings.Repeat("data: 0123456789\n", 8) + "\n", strings.Repeat("data: 0123456789\r\n", 14) + "\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		want, wantErr := readAll(strings.NewReader(in), fuzzLimits)
		checkSpans(t, in, want)
		step := max(1, len(in)/64)
		for k := 0; k <= len(in); k += step {
			got, err := readAll(io.MultiReader(strings.NewReader(in[:k]), strings.NewReader(in[k:])), fuzzLimits)
			if !sameEvents(in, got, want, fuzzLimits.MaxRaw) || errText(err) != errText(wantErr) {
				t.Fatalf("split at %d:\n got %+v %v\nwant %+v %v", k, got, err, want, wantErr)
			}
		}
		got, err := readAll(iotest.OneByteReader(strings.NewReader(in)), fuzzLimits)
		if !sameEvents(in, got, want, fuzzLimits.MaxRaw) || errText(err) != errText(wantErr) {
			t.Fatalf("one byte at a time:\n got %+v %v\nwant %+v %v", got, err, want, wantErr)
		}
	})
}

// checkSpans checks that every event lies inside in, after the one before,
// that Raw is its bytes (its head past MaxRaw), and that the annotations
// of Raw find the event's data.
func checkSpans(t *testing.T, in string, evs []Event) {
	t.Helper()
	var end int64
	for i, ev := range evs {
		if ev.Offset < end || ev.Length <= 0 || ev.Offset+ev.Length > int64(len(in)) {
			t.Fatalf("event %d span %d+%d, previous ends at %d, input %d bytes", i, ev.Offset, ev.Length, end, len(in))
		}
		if !rawOK(in, ev, fuzzLimits.MaxRaw) {
			t.Fatalf("event %d span %d+%d: Raw %q, cut %v", i, ev.Offset, ev.Length, ev.Raw, ev.RawCut)
		}
		if !ev.RawCut && !strings.HasPrefix(string(ev.Raw), "\xEF\xBB\xBF") {
			if data, ok := annotatedData(ev.Raw); data != ev.Data() || ok != (ev.DataBytes != nil) {
				t.Fatalf("event %d: the annotations of %q give data %q (%v), the reader %q", i, ev.Raw, data, ok, ev.Data())
			}
		}
		end = ev.Offset + ev.Length
	}
}

// annotatedData joins the values of the data lines httphead.SSEEventFields
// finds in raw, and says whether there was one.
func annotatedData(raw []byte) (string, bool) {
	fields := httphead.SSEEventFields(raw)
	var values []string
	for i, f := range fields {
		if f.Name != "data" || f.Kind != proto.FieldHeader {
			continue
		}
		v := ""
		if i+1 < len(fields) && fields[i+1].Kind == proto.FieldBody {
			b := fields[i+1]
			v = string(raw[b.Offset : b.Offset+b.Len])
		}
		values = append(values, v)
	}
	return strings.Join(values, "\n"), values != nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
