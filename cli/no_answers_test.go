package cli

import (
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// A question asked of a run given no --answers says how to answer it; one
// that an answers file has no answer left for says so. Both exit 2.
func TestQuestionWithoutAnswersFileSaysHow(t *testing.T) {
	t.Parallel()
	demo := func(t *testing.T) []string { return []string{builtBinary(t), "serve", "--stdio"} }
	cases := []struct {
		name   string
		args   func(t *testing.T) []string
		stderr string
	}{
		{"call, elicitation", func(t *testing.T) []string {
			return withTarget(peertest.GoSDKEverything(t), "call", legacy, "tools/call", `{"name":"elicit (form)"}`)
		}, `error: the server asked elicitation/create "provide a random string": pass --answers FILE or run the TUI`},
		{"call, answers file run out", func(t *testing.T) []string {
			return withTarget(peertest.GoSDKEverything(t), "call", legacy, "--answers", writeAnswers(t, "roots: []\n"), "tools/call", `{"name":"elicit (form)"}`)
		}, `error: no answer left for elicitation/create "provide a random string"`},
		{"script, interaction prompt", func(t *testing.T) []string {
			return withTarget(demo(t), "script", "--tool", "book_trip")
		}, `error: the server asked interaction.prompt "Where do you want to go?": pass --answers FILE or run the TUI`},
		{"script, answers file run out", func(t *testing.T) []string {
			return withTarget(demo(t), "script", "--answers", writeAnswers(t, "interaction: [Oslo]\n"), "--tool", "book_trip")
		}, `error: no answer left for interaction.prompt "Which class?"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runBuilt(t, tc.args(t)...)
			r.mustExit(t, ExitUsage)
			stderrIs(t, r, tc.stderr)
			if r.stdout != "" {
				t.Errorf("stdout: %s", r.stdout)
			}
		})
	}
}
