package export

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// benchExchanges is how many HTTP exchanges (five frames each) the
// benchmark's recording holds.
const benchExchanges = 4000

// benchRecording is an HTTP session of benchExchanges calls answered
// with JSON.
func benchRecording(b *testing.B) []byte {
	return record(b, "http", func(w *recordings.Writer) {
		s := httpSession{b, w}
		for i := range benchExchanges {
			conn := fmt.Sprintf("http POST %d", i)
			s.request(conn, "POST", "/mcp", i)
			s.body(conn, capture.Out, callBody, i)
			s.response(conn, 200, "application/json", i)
			s.body(conn, capture.In, callJSON, i)
		}
	})
}

// BenchmarkExport measures JSON Lines and HAR exports against reading the
// same recording alone (the baseline): frames/s of each and the ratio of
// each to the read.
func BenchmarkExport(b *testing.B) {
	rec := benchRecording(b)
	frames := float64(4 * benchExchanges)
	var read, jsonl, har time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := recordings.Walk(reader(b, rec), func(*recordings.Record) error { return nil }); err != nil {
			b.Fatal(err)
		}
		read += time.Since(start)
		start = time.Now()
		if _, err := WriteJSONL(io.Discard, reader(b, rec)); err != nil {
			b.Fatal(err)
		}
		jsonl += time.Since(start)
		start = time.Now()
		if _, err := WriteHAR(io.Discard, reader(b, rec), "1"); err != nil {
			b.Fatal(err)
		}
		har += time.Since(start)
	}
	n := frames * float64(b.N)
	b.ReportMetric(n/read.Seconds(), "read-frames/s")
	b.ReportMetric(n/jsonl.Seconds(), "jsonl-frames/s")
	b.ReportMetric(n/har.Seconds(), "har-frames/s")
	b.ReportMetric(read.Seconds()/jsonl.Seconds(), "jsonl/read")
	b.ReportMetric(read.Seconds()/har.Seconds(), "har/read")
}
