package sse

import (
	"io"
	"strings"
	"testing"
	"time"
)

// streamSize is the body BenchmarkParse reads: ~64 KiB events.
const streamSize = 256 << 20

// benchEvent is one ~64 KiB event as MCP servers send them: a JSON-RPC
// message on one data line.
var benchEvent = "event: message\nid: 42\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"" +
	strings.Repeat("0123456789abcdef", 4090) + "\"}}\n\n"

// source serves n bytes of repeated events with no WriteTo, so io.Copy
// pays one copy like any network body.
func source() io.Reader { return io.LimitReader(&repeat{s: benchEvent}, streamSize) }

// BenchmarkParse reports the parser's throughput as a ratio of io.Copy of
// the same bytes to io.Discard, measured in the same run.
func BenchmarkParse(b *testing.B) {
	b.SetBytes(streamSize)
	var parse, bare time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := io.Copy(io.Discard, source()); err != nil {
			b.Fatal(err)
		}
		bare += time.Since(start)

		start = time.Now()
		r := NewReader(source(), Limits{})
		events := 0
		for {
			_, err := r.Next()
			if err != nil {
				break
			}
			events++
		}
		parse += time.Since(start)
		if events < streamSize/len(benchEvent)-1 {
			b.Fatalf("%d events", events)
		}
	}
	b.ReportMetric(float64(bare)/float64(parse), "x-bare-reader")
	b.ReportMetric(float64(streamSize)*float64(b.N)/bare.Seconds()/1e6, "bare-MB/s")
	b.ReportMetric(float64(streamSize)*float64(b.N)/parse.Seconds()/1e6, "parse-MB/s")
}
