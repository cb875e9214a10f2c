package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// `mcpscope script` walks the demo server's wizards (seed 002) over
// MCP-Flow and WebSocket in-process and over stdio with `mcpscope serve
// --stdio` run by the test binary: the same scripts, the same checks.

// scriptRunner runs `mcpscope script FLAGS… TARGET` against one demo.
type scriptRunner func(t *testing.T, flags ...string) result

// flowScript targets the demo MCP-Flow server of the test.
func flowScript(t *testing.T) scriptRunner {
	d := flowDemo(t)
	return func(t *testing.T, flags ...string) result {
		t.Helper()
		args := append([]string{"script", "--cert-hash", d.CertHash()}, flags...)
		return mcpscope(t, append(args, d.Target())...)
	}
}

// stdioScript targets `mcpscope serve --stdio`, started by the run.
func stdioScript(t *testing.T) scriptRunner {
	argv, env := stubArgv(t, serveStdioMode)
	return func(t *testing.T, flags ...string) result {
		t.Helper()
		return mcpscope(t, withTarget(argv, append([]string{"script", "--env", env}, flags...)...)...)
	}
}

// wsScript targets the demo's MCP session over WebSocket (/mcp), served
// in-process: the server's interaction.prompt and elicitation/create
// requests reach mcpscope's ws transport as text frames and its answers
// go back on the same connection.
func wsScript(t *testing.T) scriptRunner {
	url := startTestDemo(t, startWSDemo, "ws")
	return func(t *testing.T, flags ...string) result {
		t.Helper()
		return mcpscope(t, append(append([]string{"script"}, flags...), url)...)
	}
}

func TestScriptWizardsFlow(t *testing.T)  { testScriptWizards(t, flowScript(t)) }
func TestScriptWizardsStdio(t *testing.T) { testScriptWizards(t, stdioScript(t)) }
func TestScriptWizardsWS(t *testing.T)    { testScriptWizards(t, wsScript(t)) }

// outcome is the line an interaction prints.
type outcome struct {
	SessionID string `json:"sessionId"`
	Cancelled bool   `json:"cancelled"`
	Summary   string `json:"summary"`
	Result    struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
	} `json:"result"`
}

// outcomes decodes stdout: one interaction line per step.
func outcomes(t *testing.T, r result, n int) []outcome {
	t.Helper()
	lines := stdoutLines(t, r)
	if len(lines) != n {
		t.Fatalf("stdout has %d lines, want %d:\n%s", len(lines), n, r.stdout)
	}
	out := make([]outcome, n)
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &out[i]); err != nil || out[i].SessionID == "" {
			t.Fatalf("line %d is not an interaction outcome: %s", i+1, l)
		}
	}
	return out
}

// diagLines returns stderr's lines.
func diagLines(r result) []string {
	return strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
}

// refusalLine is the stderr line of a refused answer.
var refusalLine = regexp.MustCompile(`^warning: the server refused the answer "2001-01-01" to "When do you leave\?": 2001-01-01 is not after today; Use a date after \d{4}-\d\d-\d\d$`)

func testScriptWizards(t *testing.T, script scriptRunner) {
	leave := time.Now().UTC().AddDate(1, 0, 0).Format(time.DateOnly)

	// book_trip from --tool: a date in the past is refused, the next answer
	// goes to the prompt sent again; then a second book_trip from the file
	// is cancelled at its second prompt.
	t.Run("book_trip", func(t *testing.T) {
		answers := writeAnswers(t, `
steps:
  - tool: book_trip
interaction:
  - Oslo
  - business
  - "2001-01-01"
  - {value: "`+leave+`"}
  - 2
  - true
  - Rome
  - {cancel: true}
`)
		r := script(t, "--progress", "--answers", answers, "--tool", "book_trip")
		r.mustExit(t, ExitOK)
		got := outcomes(t, r, 2)
		booked := got[0]
		var data struct {
			BookingRef string `json:"bookingRef"`
			Trip       struct {
				Class, Date, Destination string
				Travellers               int
			} `json:"trip"`
		}
		if err := json.Unmarshal(booked.Result.Data, &data); err != nil || !booked.Result.Success || data.Trip.Date != leave ||
			data.Trip.Destination != "Oslo" || data.Trip.Class != "business" || data.Trip.Travellers != 2 {
			t.Errorf("booking %+v (%v)", booked, err)
		}
		if want := "Booked business to Oslo on " + leave + " for 2 traveller(s): " + data.BookingRef; booked.Summary != want || data.BookingRef == "" {
			t.Errorf("summary %q, want %q", booked.Summary, want)
		}
		if !got[1].Cancelled || got[1].SessionID == booked.SessionID {
			t.Errorf("second step %+v", got[1])
		}
		want := []string{"progress 1/5 Step 1 of 5", "progress 2/5 Step 2 of 5", "progress 3/5 Step 3 of 5", "", "progress 3/5 Step 3 of 5",
			"progress 4/5 Step 4 of 5", "progress 5/5 Step 5 of 5", "progress 1/5 Step 1 of 5", "progress 2/5 Step 2 of 5"}
		lines := diagLines(r)
		if len(lines) != len(want) || !refusalLine.MatchString(lines[3]) {
			t.Fatalf("stderr:\n%s", r.stderr)
		}
		lines[3] = ""
		if !slices.Equal(lines, want) {
			t.Errorf("stderr %q, want %q", lines, want)
		}
	})

	// register_user (an email refused, then a good one), upload_report (a
	// file answer) and book_trip_stateless (declined at the confirmation),
	// all steps of the file.
	t.Run("steps", func(t *testing.T) {
		dir := t.TempDir()
		report := []byte("region,total\nnorth,12\nsouth,30\n")
		if err := os.WriteFile(filepath.Join(dir, "report.csv"), report, 0o600); err != nil {
			t.Fatal(err)
		}
		answers := filepath.Join(dir, "answers.yaml")
		if err := os.WriteFile(answers, []byte(`
steps:
  - tool: register_user
  - tool: upload_report
  - {tool: book_trip_stateless, arguments: {travellers: 3}}
interaction:
  - Ada
  - not-an-email
  - ada@example.com
  - {file: report.csv}
  - Bergen
  - economy
  - `+leave+`
  - 3
  - false
`), 0o600); err != nil {
			t.Fatal(err)
		}
		r := script(t, "--answers", answers)
		r.mustExit(t, ExitOK)
		got := outcomes(t, r, 3)
		if !got[0].Result.Success || !strings.HasPrefix(got[0].Summary, "Registered Ada <ada@example.com> as u-") {
			t.Errorf("register_user %+v", got[0])
		}
		sum := sha256.Sum256(report)
		var file struct {
			Name   string `json:"name"`
			Size   int    `json:"size"`
			SHA256 string `json:"sha256"`
		}
		if err := json.Unmarshal(got[1].Result.Data, &file); err != nil || file.Name != "report.csv" || file.Size != len(report) || file.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("upload_report %s (%v)", got[1].Result.Data, err)
		}
		if got[2].Result.Success || got[2].Summary != "Booking declined: nothing was booked" {
			t.Errorf("book_trip_stateless %+v", got[2])
		}
		if tok, ok := mcp.DecodeSessionToken(got[2].SessionID); !ok || !strings.Contains(string(tok.State), `"tool":"book_trip_stateless"`) {
			t.Errorf("the stateless session id is not the final signed token: %s", got[2].SessionID)
		}
		if r.stderr != `warning: the server refused the answer "not-an-email" to "Enter email": "not-an-email" does not have the expected form; Use the form name@example.com`+"\n" {
			t.Errorf("stderr %q", r.stderr)
		}
	})

	// Tools the server does not run interactively (interaction.start answers
	// -32007) degrade to tools/call, their elicitations answered from the
	// file: every field kind of elicit_all (the schema's defaults fill what
	// the file leaves out), a declined URL elicitation; then a ping.
	t.Run("not interactive", func(t *testing.T) {
		given := map[string]any{"name": "Ada", "email": "ada@example.com", "website": "https://example.com", "birthday": "1815-12-10",
			"meeting": "2026-12-24T10:30:00Z", "ratio": 0.5, "count": 3, "color": "green", "size": "m", "plan": "pro"}
		answers := writeAnswers(t, `
steps:
  - tool: elicit_all
  - tool: elicit_url
  - {method: ping}
elicitation:
  - content: `+jsonArg(t, given)+`
  - action: decline
`)
		r := script(t, "--answers", answers)
		r.mustExit(t, ExitOK)
		lines := stdoutLines(t, r)
		if len(lines) != 3 || lines[2] != "{}" {
			t.Fatalf("stdout:\n%s", r.stdout)
		}
		var form struct {
			StructuredContent struct {
				Action  string         `json:"action"`
				Valid   bool           `json:"valid"`
				Content map[string]any `json:"content"`
			} `json:"structuredContent"`
		}
		want := map[string]any{"subscribe": true, "toppings": []any{"cheese"}}
		for k, v := range given {
			want[k] = v
		}
		if err := json.Unmarshal([]byte(lines[0]), &form); err != nil || form.StructuredContent.Action != "accept" || !form.StructuredContent.Valid ||
			jsonArg(t, form.StructuredContent.Content) != jsonArg(t, want) {
			t.Errorf("elicit_all: %s (%v)\nwant content %v", lines[0], err, want)
		}
		if !strings.Contains(lines[1], `"result":"declined"`) {
			t.Errorf("elicit_url: %s", lines[1])
		}
	})

	// A prompt with no answer left fails the run: exit 2, the prompt named,
	// nothing on stdout.
	t.Run("no answer left", func(t *testing.T) {
		r := script(t, "--answers", writeAnswers(t, "interaction: [Oslo]\n"), "--tool", "book_trip")
		r.mustExit(t, ExitUsage)
		if r.stderr != "error: no answer left for interaction.prompt \"Which class?\"\n" || r.stdout != "" {
			t.Errorf("stderr %q stdout %q", r.stderr, r.stdout)
		}
		// An elicitation of a degraded step words it as call does; with
		// no answers file at all, it says how to answer.
		r = script(t, "--tool", "elicit_all")
		r.mustExit(t, ExitUsage)
		if r.stderr != "error: the server asked elicitation/create \"Fill in every kind of field\": pass --answers FILE or run the TUI\n" || r.stdout != "" {
			t.Errorf("stderr %q stdout %q", r.stderr, r.stdout)
		}
	})
}
