package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/rectest"
	"github.com/mcpscope/mcpscope/recordings"
)

// Command lines and recordings replay --against refuses: exit 2 before
// anything connects, with the reason.
func TestReplayAgainstUsage(t *testing.T) {
	t.Parallel()
	rec := record(t, "tools")
	answers := writeAnswers(t, "elicitation: []\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--against", "--", "server"}, "missing FILE"},
		{[]string{"replay", rec, "x", "--against", "--", "server"}, "takes one FILE before the TARGET, got 2"},
		{[]string{"replay", rec, "--against"}, "TARGET"},
		{[]string{"replay", rec, "--against", "--answers", answers, "--", "server"}, "--answers does not apply to replay --against"},
		{[]string{"replay", rec, "--against", "--record", rec, "--", "server"}, "--record names the recording being replayed"},
		{[]string{"replay", rec, "--against", "--ignore", "result.tools", "--", "server"}, `--ignore "result.tools": a path starts with $`},
		{[]string{"replay", rec, "--against", "--ignore", "$.a[", "--", "server"}, `--ignore "$.a[": at byte 3 of the path: the path ends after [`},
		{[]string{"replay", rec + ".missing", "--against", "--", "server"}, "opening the recording"},
		{[]string{"replay", answers, "--against", "--", "server"}, "not an mcpscope recording"},
	} {
		r := mcpscope(t, c.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit 2 saying %q", c.args, r.code, r.stderr, r.stdout, c.want)
		}
	}

	// Nothing but the handshake answered: nothing to send again.
	if n := editRecording(t, rec, nil, `"dir":"in"`, `{\"tools\":[`); n != 1 {
		t.Fatalf("%d answers dropped", n)
	}
	r := replayAgainst(t, rec, nil)
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, "holds no request to send again") {
		t.Errorf("stderr %q", r.stderr)
	}
}

// A request the recording holds no answer for is not sent; a recording
// cut short replays what it holds before the cut, and says so.
func TestReplayAgainstPartialRecording(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, "steps:\n  - {method: ping}\n  - {method: tools/list}\n")
	rec := record(t, "script", "--answers", answers)
	if n := editRecording(t, rec, nil, `"dir":"in"`, `\"result\":{}`); n != 1 {
		t.Fatalf("%d ping answers dropped", n)
	}
	rectest.Cut(t, rec, 5) // the end line, torn
	r := replayAgainst(t, rec, nil)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, "skipped ping: no answer was recorded", "ok      tools/list", "1 request sent again: 1 ok, 0 differ, 1 skipped")
	if !strings.HasPrefix(r.stderr, "warning: the recording is cut short: line ") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr %q", r.stderr)
	}
}

// Corrupt lines are skipped and named, the first recordings.MaxCorruptNamed
// of them; the rest are counted in one warning.
func TestReplayAgainstCorruptLines(t *testing.T) {
	t.Parallel()
	rec := record(t, "tools")
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	header, rest, _ := strings.Cut(string(b), "\n")
	corrupt := strings.Repeat("{\"k\":\"frame\",}\n", recordings.MaxCorruptNamed+2)
	if err := os.WriteFile(rec, []byte(header+"\n"+corrupt+rest), 0o600); err != nil {
		t.Fatal(err)
	}
	r := replayAgainst(t, rec, nil)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, "ok      tools/list", "1 request sent again: 1 ok, 0 differ, 0 skipped")
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != recordings.MaxCorruptNamed+1 || !strings.HasPrefix(lines[0], "warning: line 2 (byte ") ||
		!strings.HasSuffix(lines[0], "; it is skipped") || lines[len(lines)-1] != "warning: 2 corrupt lines more skipped" {
		t.Errorf("stderr %q", r.stderr)
	}
}

// `serve --tool-description` takes NAME=TEXT for a tool of the demo, on
// every transport.
func TestServeToolDescriptionUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--stdio", "--tool-description", "echo"}, `--tool-description takes NAME=TEXT, got "echo"`},
		{[]string{"serve", "--stdio", "--tool-description", "=x"}, `--tool-description takes NAME=TEXT, got "=x"`},
		{[]string{"serve", "--stdio", "--tool-description", "nope=x"}, `the demo has no tool named "nope" to describe`},
		{[]string{"serve", "--http", "127.0.0.1:0", "--tool-description", "nope=x"}, `the demo has no tool named "nope" to describe`},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--tool-description", "nope=x"}, `the demo has no tool named "nope" to describe`},
	} {
		r := mcpscope(t, c.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 saying %q", c.args, r.code, r.stderr, c.want)
		}
	}
}
