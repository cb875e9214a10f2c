package cli

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// replayJUnitReport is a JUnit report as a CI service reads it.
type replayJUnitReport struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Cases    []struct {
		Name      string `xml:"name,attr"`
		Classname string `xml:"classname,attr"`
		Failure   *struct {
			Message string `xml:"message,attr"`
			Text    string `xml:",chardata"`
		} `xml:"failure"`
		Error *struct {
			Message string `xml:"message,attr"`
		} `xml:"error"`
		Skipped *struct{} `xml:"skipped"`
	} `xml:"testcase"`
}

// readReplayJUnit parses the report at path.
func readReplayJUnit(t *testing.T, path string) replayJUnitReport {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r replayJUnitReport
	if err := xml.Unmarshal(b, &r); err != nil {
		t.Fatalf("the report does not parse: %v\n%s", err, b)
	}
	return r
}

// A recording of the TypeScript reference server whose tool description
// was changed by hand, sent again to a fresh server: the tools/list
// testcase is a failure naming the tool and both descriptions.
func TestReplayAgainstJUnitTS(t *testing.T) {
	t.Parallel()
	argv := tsServer(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "tools.mcpscope.jsonl")
	mcpscope(t, withTarget(argv, "tools", "--record", rec)...).mustExit(t, ExitOK)
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	const said = "Echoes back the input string"
	if !strings.Contains(string(b), said) {
		t.Fatalf("the recording lacks echo's description %q", said)
	}
	// Same length: the frame's annotations still fit.
	if err := os.WriteFile(rec, []byte(strings.ReplaceAll(string(b), said, "Echoes back the INPUT string")), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.xml")
	r := mcpscope(t, withTarget(argv, "replay", rec, "--against", "--junit", report)...)
	r.mustExit(t, ExitRPCError)
	j := readReplayJUnit(t, report)
	if j.Name != "tools.mcpscope.jsonl" || j.Tests != 1 || j.Failures != 1 || j.Errors != 0 || len(j.Cases) != 1 {
		t.Fatalf("report %+v", j)
	}
	c := j.Cases[0]
	if c.Name != "#1 tools/list" || c.Classname != "tools/list" || c.Failure == nil ||
		!strings.Contains(c.Failure.Message, `tool "echo" changed: description`) ||
		!strings.Contains(c.Failure.Text, `"Echoes back the INPUT string" → "Echoes back the input string"`) {
		t.Errorf("testcase %+v (%+v)", c, c.Failure)
	}
}

// Against the demo: equal answers pass; a changed description fails its
// testcase; a server that drops the connection mid-way (exit 3) still
// leaves a report of the steps before, the step in flight in error.
func TestReplayAgainstJUnitDemo(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, `
steps:
  - {method: tools/list}
  - {method: tools/call, params: {name: misbehave, arguments: {mode: cut_sse}}}
`)
	dir := t.TempDir()
	rec := filepath.Join(dir, "s.mcpscope.jsonl")
	mcpscope(t, append([]string{"script", "--answers", answers, "--record", rec}, demoServer(t)...)...).mustExit(t, ExitRPCError)

	report := filepath.Join(dir, "ok.xml")
	replayAgainst(t, rec, []string{"--junit", report}).mustExit(t, ExitOK)
	if j := readReplayJUnit(t, report); j.Tests != 2 || j.Failures+j.Errors+j.Skipped != 0 {
		t.Errorf("report %+v", j)
	}

	report = filepath.Join(dir, "differs.xml")
	replayAgainst(t, rec, []string{"--junit", report}, "--tool-description", "echo=Says \x1b[31mit").mustExit(t, ExitRPCError)
	j := readReplayJUnit(t, report)
	if j.Failures != 1 || j.Cases[0].Failure == nil || !strings.Contains(j.Cases[0].Failure.Text, `"Answer the message" → "Says \u001b[31mit"`) {
		t.Errorf("report %+v", j)
	}

	// Over stdio the demo refuses cut_sse with an error answer; told
	// "drop" instead, it ends the connection without answering.
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	dropped := strings.ReplaceAll(string(b), `\"mode\":\"cut_sse\"`, `\"mode\":\"drop\"   `)
	if dropped == string(b) {
		t.Fatal("the recording lacks the misbehave call")
	}
	drop := filepath.Join(dir, "drop.mcpscope.jsonl")
	if err := os.WriteFile(drop, []byte(dropped), 0o644); err != nil {
		t.Fatal(err)
	}
	report = filepath.Join(dir, "drop.xml")
	replayAgainst(t, drop, []string{"--junit", report}).mustExit(t, ExitConnection)
	j = readReplayJUnit(t, report)
	if j.Tests != 2 || j.Errors != 1 || j.Cases[0].Error != nil || j.Cases[1].Error == nil ||
		!strings.Contains(j.Cases[1].Error.Message, "connection lost") {
		t.Errorf("report %+v", j)
	}
}

// --junit needs --against, and a folder that exists.
func TestReplayJUnitUsage(t *testing.T) {
	t.Parallel()
	r := mcpscope(t, "replay", "x.jsonl", "--junit", "r.xml")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, "--junit needs --against") {
		t.Errorf("stderr: %s", r.stderr)
	}
	rec := record(t, "tools")
	r = replayAgainst(t, rec, []string{"--junit", filepath.Join(t.TempDir(), "no", "r.xml")})
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, "its folder does not exist") {
		t.Errorf("stderr: %s", r.stderr)
	}
}
