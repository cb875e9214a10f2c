package cli

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/rectest"
	"github.com/mcpscope/mcpscope/proto"
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

// The engine's own _meta members leave a recorded request; the caller's
// stay.
func TestWithoutEngineMeta(t *testing.T) {
	for in, want := range map[string]string{
		`{"name":"x"}`: `{"name":"x"}`,
		`[1,"_meta"]`:  `[1,"_meta"]`,
		`{"name":"x","_meta":{"progressToken":3,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{},"io.modelcontextprotocol/clientCapabilities":{}}}`: `{"name":"x"}`,
		`{"_meta":{"progressToken":3,"mine":true},"name":"x"}`: `{"_meta":{"mine":true},"name":"x"}`,
		`{"_meta":"odd"}`: `{"_meta":"odd"}`,
	} {
		if got := string(withoutEngineMeta(json.RawMessage(in))); got != want {
			t.Errorf("withoutEngineMeta(%s) = %s, want %s", in, got, want)
		}
	}
}

// Items of every keyed list are named when added, removed or changed, and
// what changed in a changed one.
func TestItemLines(t *testing.T) {
	o, err := compareOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	diffs := func(old, new string) []string {
		return answerDiffs([]byte(old), []byte(new), o)
	}
	got := diffs(
		`{"result":{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},{"name":"b"}],"prompts":[{"name":"p"}],"resources":[{"uri":"u:1","name":"one"}]}}`,
		`{"result":{"tools":[{"name":"c"},{"name":"a","inputSchema":{"type":"object","required":["x"]},"annotations":{},"_meta":{"x":1}}],"prompts":[],"resources":[{"uri":"u:1","name":"uno"}]}}`)
	want := []string{
		`prompt "p" removed`,
		`resource "u:1" changed: name`,
		`tool "a" changed: annotations, schema`,
		`tool "b" removed`,
		`tool "c" added`,
		`$.result.prompts[0]: {"name":"p"} → (none)`,
		`$.result.resources[0].name: "one" → "uno"`,
		`$.result.tools[1].annotations.readOnlyHint: true → (none)`,
		`$.result.tools[1].inputSchema.required: (none) → ["x"]`,
		`$.result.tools[1]: {"name":"b"} → (none)`,
		`$.result.tools[0]: (none) → {"name":"c"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// An error where a result was, and the volatile members ignored.
	got = diffs(string(answerDocument(json.RawMessage(`{"sessionId":"1","createdAt":5,"x":1}`), nil)),
		string(answerDocument(nil, &proto.Error{Code: -32602, Message: "bad"})))
	if want := []string{`$.error: (none) → {"code":-32602,"message":"bad"}`, `$.result: {"createdAt":5,"sessionId":"1","x":1} → (none)`}; !slices.Equal(got, want) {
		t.Errorf("lines %q", got)
	}
	if got := diffs(`{"result":{"sessionId":"1","_meta":{"a":1},"deep":{"timestamp":1}}}`, `{"result":{"sessionId":"2","deep":{"timestamp":2}}}`); len(got) != 0 {
		t.Errorf("volatile members compared: %q", got)
	}
	if got := diffs(`{"result":1}`, `{"result":`); len(got) != 1 || !strings.HasPrefix(got[0], "the answers differ, and cannot be compared by path: ") {
		t.Errorf("a broken answer: %q", got)
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
