package resulttext

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// BenchmarkListing renders a 1,000-tool listing for a 120-column terminal.
func BenchmarkListing(b *testing.B) {
	tools := make([]json.RawMessage, 1000)
	for i := range tools {
		tools[i] = json.RawMessage(`{"name":"tool_` + strconv.Itoa(i) + `","title":"Tool","description":"` + strings.Repeat("does things ", 20) + `"}`)
	}
	for b.Loop() {
		Listing([]string{"tools"}, [][]json.RawMessage{tools}, 120)
	}
}

// BenchmarkToolResult renders a tools/call result of 8 MiB of text.
func BenchmarkToolResult(b *testing.B) {
	raw := []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("line of text\\n", 8<<20/14) + `"}]}`)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		Result(mcp.MethodToolsCall, raw, 120)
	}
}
