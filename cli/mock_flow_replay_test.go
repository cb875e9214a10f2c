package cli

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings/mock"
)

// A session recorded against the demo over stdio, served over MCP-Flow
// by the mock and sent again with replay --against: no difference, in
// JSON and in CBOR.
func TestMockFlowReplayAgainst(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, `
steps:
  - {method: tools/list}
  - {method: prompts/list}
  - {method: tools/call, params: {name: echo, arguments: {message: "héllo"}}}
  - {method: resources/list}
`)
	rec := filepath.Join(t.TempDir(), "demo.mcpscope.jsonl")
	mcpscope(t, append([]string{"script", "--answers", answers, "--record", rec}, demoServer(t)...)...).mustExit(t, ExitOK)
	loaded, err := mock.Load(rec)
	if err != nil {
		t.Fatal(err)
	}
	target, hash, _ := serveMockFlowForTest(t, func(ctx context.Context, w io.Writer) error { return serveMockFlow(ctx, loaded, "127.0.0.1:0", w) })
	for _, enc := range []string{"json", "cbor"} {
		r := mcpscope(t, "replay", rec, "--against", "--encoding", enc, "--cert-hash", hash, target)
		r.mustExit(t, ExitOK)
		if !strings.HasSuffix(r.stdout, "4 requests sent again: 4 ok, 0 differ, 0 skipped\n") {
			t.Errorf("%s: stdout:\n%s\nstderr:\n%s", enc, r.stdout, r.stderr)
		}
	}
}
