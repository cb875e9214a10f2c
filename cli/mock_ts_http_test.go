package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// The TypeScript everything server over Streamable HTTP answers the
// client's first probe with an error of id null: its recording loads,
// and replay --against the mock (stdio and HTTP) reports no difference;
// a script through the mock prints what it printed against the server.
func TestMockTSStreamableHTTP(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, `
steps:
  - {tool: get-sum, arguments: {a: 2, b: 3}}
  - {tool: trigger-sampling-request, arguments: {prompt: "hi", maxTokens: 10}}
  - {tool: trigger-long-running-operation, arguments: {duration: 0.2, steps: 2}}
sampling:
  - text: "Paris"
    model: manual
`)
	peer := peertest.StartTSStreamableHTTP(t)
	rec, want := recordPeer(t, []string{peer.URL}, "script", "--answers", answers)
	if b, _ := os.ReadFile(rec); !strings.Contains(string(b), `\"id\":null`) {
		t.Fatalf("the server no longer answers the probe with an error of id null: the recording proves nothing")
	}
	r := mcpscope(t, append([]string{"replay", rec, "--against"}, stubTarget(t, mockArgsMode, rec)...)...)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, "ok      capabilities", `ok      tools/call "get-sum"`, `ok      tools/call "trigger-sampling-request"`,
		`ok      tools/call "trigger-long-running-operation"`, "4 requests sent again: 4 ok, 0 differ, 0 skipped")
	url := startMock(t, "--http", rec)
	r = mcpscope(t, "replay", rec, "--against", url)
	r.mustExit(t, ExitOK)
	r = mcpscope(t, "script", "--answers", answers, url)
	r.mustExit(t, ExitOK)
	if r.stdout != want.stdout {
		t.Errorf("through the mock:\n%s\nthe server:\n%s", r.stdout, want.stdout)
	}
}
