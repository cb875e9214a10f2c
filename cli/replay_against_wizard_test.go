package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The demo's wizards (seed 002) recorded by `mcpscope script` and sent
// again: each prompt gets the answer the recording holds, a refused one
// included, and each session is compared by its outcome.

// recordWizards records book_trip (a refused date, then a good one),
// upload_report (a file answer) and book_trip_stateless (cancelled), and
// removes the answers file: the replay has only the recording.
func recordWizards(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "report.csv"), []byte("region,total\nnorth,12\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	leave := time.Now().UTC().AddDate(1, 0, 0).Format(time.DateOnly)
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte(`
steps:
  - tool: book_trip
  - tool: upload_report
  - tool: book_trip_stateless
interaction:
  - Oslo
  - business
  - "2001-01-01"
  - "`+leave+`"
  - 2
  - true
  - {file: report.csv}
  - Bergen
  - {cancel: true}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "wizards.mcpscope.jsonl")
	r := mcpscope(t, append([]string{"script", "--answers", answers, "--record", path}, demoServer(t)...)...)
	r.mustExit(t, ExitOK)
	for _, f := range []string{answers, filepath.Join(dir, "report.csv")} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// editRecording rewrites the lines of a recording that hold every one of
// match with edit (nil: the line is dropped), and says how many it changed.
func editRecording(t *testing.T, path string, edit func(string) string, match ...string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	var out strings.Builder
	n := 0
	for _, l := range lines {
		hit := l != ""
		for _, m := range match {
			hit = hit && strings.Contains(l, m)
		}
		switch {
		case !hit:
			out.WriteString(l)
		case edit != nil:
			out.WriteString(edit(l))
			n++
		default:
			n++
		}
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestReplayAgainstWizards(t *testing.T) {
	t.Parallel()
	rec := recordWizards(t)
	want := []string{
		`ok      interaction.start "book_trip"`,
		`ok      interaction.start "upload_report"`,
		`ok      interaction.start "book_trip_stateless"`,
		"3 requests sent again: 3 ok, 0 differ, 0 skipped",
	}
	r := replayAgainst(t, rec, nil)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, want...)
	if !refusalLine.MatchString(strings.TrimSuffix(r.stderr, "\n")) {
		t.Errorf("the refused answer was not sent again: stderr %q", r.stderr)
	}

	// The destination the recording answers with is what the server books.
	if n := editRecording(t, rec, func(l string) string { return strings.ReplaceAll(l, "Oslo", "Rome") }, `"dir":"out"`, "interaction.respond", "Oslo"); n != 1 {
		t.Fatalf("%d answers edited", n)
	}
	ignore := []string{"--ignore", "$..bookingRef", "--ignore", "$.summary"}
	r = replayAgainst(t, rec, ignore)
	r.mustExit(t, ExitRPCError)
	stdoutIs(t, r,
		`differs interaction.start "book_trip"`,
		`  $.result.data.trip.destination: "Oslo" → "Rome"`,
		want[1], want[2],
		"3 requests sent again: 2 ok, 1 differs, 0 skipped")

	// Without its last answer, upload_report asks a question the recording
	// cannot answer: that session differs and the replay goes on.
	if n := editRecording(t, rec, nil, `"dir":"out"`, "interaction.respond", "report.csv"); n != 1 {
		t.Fatalf("%d answers dropped", n)
	}
	r = replayAgainst(t, rec, ignore)
	r.mustExit(t, ExitRPCError)
	stdoutIs(t, r,
		`differs interaction.start "book_trip"`,
		`  $.result.data.trip.destination: "Oslo" → "Rome"`,
		`differs interaction.start "upload_report"`,
		`  the server asked interaction.prompt "Choose the report to upload", which the recording holds no answer for`,
		want[2],
		"3 requests sent again: 1 ok, 2 differ, 0 skipped")
}

// An elicitation the recording holds no answer for stops the replay at
// the request that caused it: exit 1, naming the question.
func TestReplayAgainstUnansweredElicitation(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, `
steps:
  - {method: tools/call, params: {name: elicit_all}}
  - {method: ping}
elicitation:
  - content: {name: Ada, email: ada@example.com, website: "https://example.com", birthday: "1815-12-10",
      meeting: "2026-12-24T10:30:00Z", ratio: 0.5, count: 3, color: green, size: m, plan: pro}
`)
	path := filepath.Join(t.TempDir(), "elicit.mcpscope.jsonl")
	mcpscope(t, append([]string{"script", "--answers", answers, "--record", path}, demoServer(t)...)...).mustExit(t, ExitOK)

	// The recorded answer is the one sent: another name, another result.
	if n := editRecording(t, path, func(l string) string { return strings.ReplaceAll(l, "Ada", "Bob") }, `"dir":"out"`, `\"action\":\"accept\"`); n != 1 {
		t.Fatalf("%d answers edited", n)
	}
	r := replayAgainst(t, path, nil)
	r.mustExit(t, ExitRPCError)
	if !strings.HasPrefix(r.stdout, "differs tools/call \"elicit_all\"\n  $.result.content[0].text: ") || !strings.Contains(r.stdout, `Bob`) {
		t.Errorf("stdout:\n%s", r.stdout)
	}

	if n := editRecording(t, path, nil, `"dir":"out"`, `\"action\":\"accept\"`); n != 1 {
		t.Fatalf("%d answers dropped", n)
	}
	r = replayAgainst(t, path, nil)
	r.mustExit(t, ExitRPCError)
	stdoutIs(t, r, `differs tools/call "elicit_all"`,
		`~  the server asked elicitation/create ".*", which the recording holds no answer for`)
	if !strings.HasPrefix(r.stderr, "error: the replay stopped: no answer left for elicitation/create") {
		t.Errorf("stderr %q", r.stderr)
	}
}
