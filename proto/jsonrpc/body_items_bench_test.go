package jsonrpc

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto"
)

// toolsListResult is a tools/list result of n tools, each with an input
// schema of three properties, as JSON.
func toolsListResult(tb testing.TB, n int) []byte {
	tools := make([]any, n)
	for i := range tools {
		tools[i] = map[string]any{
			"name": fmt.Sprintf("tool_%d", i), "description": "Reads a file and returns its lines, numbered.",
			"inputSchema": map[string]any{"type": "object", "required": []string{"path"}, "properties": map[string]any{
				"path": map[string]any{"type": "string"}, "from": map[string]any{"type": "integer", "minimum": 0},
				"lines": map[string]any{"type": "integer", "maximum": 1000},
			}},
		}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "result": map[string]any{"tools": tools}})
	if err != nil {
		tb.Fatal(err)
	}
	return body
}

// BenchmarkBodyItems annotates a tools/list result of 100 tools (about
// 3,000 items, under the limit) and of 1,000 tools (past it), in JSON and
// in CBOR, each beside decoding the same body as a message, the work the
// UI does for every frame anyway. It reports each time and the ratio of
// annotating to decoding.
func BenchmarkBodyItems(b *testing.B) {
	for _, tools := range []int{100, 1000} {
		for _, enc := range []proto.Encoding{proto.EncJSON, proto.EncCBOR} {
			b.Run(fmt.Sprintf("%s/%d_tools", enc, tools), func(b *testing.B) {
				body := toolsListResult(b, tools)
				if enc == proto.EncCBOR {
					var err error
					if body, err = JSONToCBOR(body); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(int64(len(body)))
				var items, decode time.Duration
				for b.Loop() {
					start := time.Now()
					_ = BodyItems(enc, body, 4)
					items += time.Since(start)
					start = time.Now()
					if _, err := Decode(enc, body); err != nil {
						b.Fatal(err)
					}
					decode += time.Since(start)
				}
				n := float64(b.N)
				b.ReportMetric(float64(items.Nanoseconds())/n, "ns/items")
				b.ReportMetric(float64(decode.Nanoseconds())/n, "ns/decode")
				b.ReportMetric(float64(items)/float64(decode), "items/decode")
			})
		}
	}
}
