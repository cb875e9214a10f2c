package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A 2026-07-28 session with MRTR rounds (the Go SDK conformance server):
// the replay sends each logical call once, the engine makes its rounds,
// and the input they ask for gets the recording's inputResponses —
// elicitation, sampling and roots — in order.
func TestReplayAgainstMRTR(t *testing.T) {
	t.Parallel()
	argv := conformanceServer(t)
	answers := writeAnswers(t, `
steps:
  - {method: tools/call, params: {name: test_input_required_result_multi_round}}
  - {method: tools/call, params: {name: test_input_required_result_multiple_inputs}}
elicitation:
  - content: {name: Ada}
  - content: {color: teal}
  - content: {name: Ada}
sampling:
  - text: Hello
`)
	rec := filepath.Join(t.TempDir(), "mrtr.mcpscope.jsonl")
	mcpscope(t, withTarget(argv, "script", "--answers", answers, "--root", "file:///srv/conformance", "--record", rec)...).mustExit(t, ExitOK)

	r := mcpscope(t, withTarget(argv, "replay", rec, "--against")...)
	r.mustExit(t, ExitOK)
	want := []string{
		`ok      tools/call "test_input_required_result_multi_round"`,
		`ok      tools/call "test_input_required_result_multiple_inputs"`,
		"2 requests sent again: 2 ok, 0 differ, 0 skipped",
	}
	stdoutIs(t, r, want...)

	// The first answer of the recording is the one the first round gets.
	if n := editRecording(t, rec, func(l string) string { return strings.Replace(l, "teal", "blue", 2) }, `"dir":"out"`, "inputResponses", "teal"); n != 1 {
		t.Fatalf("%d retries edited", n)
	}
	r = mcpscope(t, withTarget(argv, "replay", rec, "--against")...)
	r.mustExit(t, ExitRPCError)
	stdoutIs(t, r,
		`differs tools/call "test_input_required_result_multi_round"`,
		`  $.result.content[0].text: "Multi-round complete: Ada likes teal" → "Multi-round complete: Ada likes blue"`,
		want[1],
		"2 requests sent again: 1 ok, 1 differs, 0 skipped")
}
