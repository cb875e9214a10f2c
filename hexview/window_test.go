package hexview

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// patternDump is a dump of n bytes whose every row of 16 holds the same
// bytes (printable and not), annotated by a 4-byte header and a body.
func patternDump(n int) Dump {
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i % 16 * 17)
	}
	fields := []proto.Field{
		{Offset: 0, Len: 4, Name: "length", Value: "0", Kind: proto.FieldHeader},
		{Offset: 4, Len: n - 4, Name: "body", Value: "", Kind: proto.FieldBody},
	}
	return Dump{Data: data, Fields: fields, Size: n}
}

func TestRenderWindowOfLargeDump(t *testing.T) {
	const top, rows, perRow = 1000, 20, 16
	big := patternDump(64 << 20)
	got := big.Render(top, rows, perRow, DefaultStyles(true))
	// The same rows as a dump of just their bytes, its offsets shifted back.
	start := top * perRow
	small := Dump{Data: big.Data[start : start+rows*perRow], Base: start}
	for _, f := range big.Fields {
		f.Offset -= start
		small.Fields = append(small.Fields, f)
	}
	small.Size = len(small.Data)
	if want := small.Render(0, rows, perRow, DefaultStyles(true)); got != want {
		t.Fatalf("rows %d..%d of 64 MiB differ from the same bytes alone:\n%s\nwant\n%s", top, top+rows, got, want)
	}
	// The work is the window's: a 64 MiB dump allocates no more than a 1 KiB one.
	tiny := patternDump(1 << 10)
	allocs := func(d Dump, top int) float64 {
		return testing.AllocsPerRun(20, func() { _ = d.Render(top, rows, perRow, DefaultStyles(true)) })
	}
	if a, b := allocs(tiny, 40), allocs(big, top); a != b {
		t.Fatalf("allocations per render: 1 KiB dump %v, 64 MiB dump %v", a, b)
	}
}

// BenchmarkRenderWindow renders 20 rows of a 1 KiB dump and rows 1000..1020
// of a 64 MiB dump, alternately so that a busy machine slows both alike,
// and reports the time of each and their ratio, which stays near 1 because
// only the window is rendered.
func BenchmarkRenderWindow(b *testing.B) {
	cases := []struct {
		dump Dump
		top  int
	}{{patternDump(1 << 10), 40}, {patternDump(64 << 20), 1000}}
	st := DefaultStyles(true)
	var spent [2]time.Duration
	for b.Loop() {
		for i, c := range cases {
			start := time.Now()
			_ = c.dump.Render(c.top, 20, 16, st)
			spent[i] += time.Since(start)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(spent[0].Nanoseconds())/n, "ns/op-1KiB")
	b.ReportMetric(float64(spent[1].Nanoseconds())/n, "ns/op-64MiB")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "ratio")
}
