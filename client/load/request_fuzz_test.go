package load

import (
	"testing"

	"github.com/mcpscope/mcpscope/client"
)

// FuzzToolJudge: the judge of a tool result, which skips decoding a
// result that cannot hold isError, says what client.CheckToolResult says
// of any bytes a server may send, and never panics.
func FuzzToolJudge(f *testing.F) {
	for _, seed := range []string{
		`{"content":[{"type":"text","text":"Hi"}]}`,
		`{"content":[{"type":"text","text":"no"}],"isError":true}`,
		`{"\u0069sError":true}`,
		`{"isError":"yes"}`,
		`{"isError":true,"task":{}}`,
		`[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(seed))
	}
	judge := Request{Tool: "t"}.judge()
	f.Fuzz(func(t *testing.T, res []byte) {
		got := judge(res)
		want := client.CheckToolResult("t", res, nil)
		if (got == nil) != (want == nil) {
			t.Fatalf("judge %v, CheckToolResult %v, of %q", got, want, res)
		}
	})
}
