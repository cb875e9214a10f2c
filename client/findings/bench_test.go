package findings

import (
	"fmt"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// BenchmarkDetector reads a 2026-07-28 session of tools/call pairs whose
// tool declares an outputSchema: the cost of the findings per frame.
func BenchmarkDetector(b *testing.B) {
	frames := []*capture.Frame{
		line(capture.Out, `{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{`+meta+`}}`),
		line(capture.In, `{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","tools":[{"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"t":{"type":"number"}},"required":["t"]}}]}}`),
	}
	for i := 1; i <= 500; i++ {
		frames = append(frames,
			line(capture.Out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"w","arguments":{},`+meta+`}}`, i)),
			line(capture.In, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"t\":21}"}],"structuredContent":{"t":21}}}`, i)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d := NewDetector()
		for _, f := range frames {
			d.Note(f)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(frames)), "ns/frame")
}
