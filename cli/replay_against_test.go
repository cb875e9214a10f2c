package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// `mcpscope replay FILE --against TARGET` against the demo over stdio:
// recordings made by the real commands, sent again to the same server
// and to one whose echo tool says something else.

// serveStdioArgsMode makes the test binary run `mcpscope serve --stdio`
// with the arguments it was started with.
const serveStdioArgsMode = "serve-stdio-args"

func init() {
	stubTakeovers[serveStdioArgsMode] = func() int {
		return Execute(context.Background(), append([]string{"serve", "--stdio"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr)
	}
}

// demoServer returns the mcpscope flags and target of `serve --stdio` with
// serveArgs: --env … -- EXE serveArgs….
func demoServer(t *testing.T, serveArgs ...string) []string {
	argv, env := stubArgv(t, serveStdioArgsMode)
	return append([]string{"--env", env, "--"}, append(argv, serveArgs...)...)
}

// record runs an mcpscope command against the demo with --record and
// returns the recording's path.
func record(t *testing.T, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.mcpscope.jsonl")
	r := mcpscope(t, append(append(args, "--record", path), demoServer(t)...)...)
	r.mustExit(t, ExitOK)
	return path
}

// replayAgainst runs replay FILE --against with flags against the demo
// started with serveArgs.
func replayAgainst(t *testing.T, file string, flags []string, serveArgs ...string) result {
	t.Helper()
	args := append([]string{"replay", file, "--against"}, flags...)
	return mcpscope(t, append(args, demoServer(t, serveArgs...)...)...)
}

// stdoutIs checks stdout line by line; a line of want that starts with ~
// is a regular expression.
func stdoutIs(t *testing.T, r result, want ...string) {
	t.Helper()
	got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		if re, isRE := strings.CutPrefix(want[i], "~"); isRE {
			ok = regexp.MustCompile("^" + re + "$").MatchString(got[i])
		} else {
			ok = got[i] == want[i]
		}
	}
	if !ok {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr:\n%s", r.stdout, strings.Join(want, "\n"), r.stderr)
	}
}

// The demo answers as it did: exit 0. With echo's description changed,
// tools/list differs, naming the tool and what changed in it: exit 1.
// --ignore on the descriptions makes it equal again.
func TestReplayAgainstDemoDescription(t *testing.T) {
	t.Parallel()
	rec := record(t, "tools")
	r := replayAgainst(t, rec, nil)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, "ok      tools/list", "1 request sent again: 1 ok, 0 differ, 0 skipped")
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}

	r = replayAgainst(t, rec, nil, "--tool-description", "echo=Says the message back")
	r.mustExit(t, ExitRPCError)
	stdoutIs(t, r,
		"differs tools/list",
		`  tool "echo" changed: description`,
		`~  \$\.result\.tools\[\d+\]\.description: "Answer the message" → "Says the message back"`,
		"1 request sent again: 0 ok, 1 differs, 0 skipped")
	if r.stderr != "error: 1 of 1 answer differs from the recording\n" {
		t.Errorf("stderr: %q", r.stderr)
	}

	r = replayAgainst(t, rec, []string{"--ignore", "$.result.tools[*].description"}, "--tool-description", "echo=Says the message back")
	r.mustExit(t, ExitOK)

	// A description with escape sequences is shown escaped.
	r = replayAgainst(t, rec, nil, "--tool-description", "echo=\x1b]0;owned\x07")
	r.mustExit(t, ExitRPCError)
	if strings.ContainsAny(r.stdout, "\x1b\x07") || !strings.Contains(r.stdout, `"Answer the message" → "\u001b]0;owned\u0007"`) {
		t.Errorf("stdout: %q", r.stdout)
	}
}

// Calls of every kind come back equal: results, an elicitation round
// answered from the recording (no --answers given), an error answer.
func TestReplayAgainstDemoCalls(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, `
steps:
  - {tool: echo, arguments: {message: "hello"}}
  - {tool: elicit_all}
  - {method: prompts/list}
  - {method: tools/call, params: {name: nope}}
elicitation:
  - content: {name: Ada, email: ada@example.com, website: "https://example.com", birthday: "1815-12-10",
      meeting: "2026-12-24T10:30:00Z", ratio: 0.5, count: 3, color: green, size: m, plan: pro}
`)
	path := filepath.Join(t.TempDir(), "calls.mcpscope.jsonl")
	r := mcpscope(t, append([]string{"script", "--answers", answers, "--record", path}, demoServer(t)...)...)
	r.mustExit(t, ExitRPCError) // the last step calls a tool that does not exist
	r = replayAgainst(t, path, nil)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r,
		`ok      interaction.start "echo"`,
		`ok      tools/call "echo"`,
		`ok      interaction.start "elicit_all"`,
		`ok      tools/call "elicit_all"`,
		`ok      prompts/list`,
		`ok      tools/call "nope"`,
		"6 requests sent again: 6 ok, 0 differ, 0 skipped")
}
