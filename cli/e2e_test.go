package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// result is what one in-process run of mcpscope produced.
type result struct {
	code           int
	stdout, stderr string
}

// mcpscope runs the real command tree in-process with args.
func mcpscope(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	var out, errb bytes.Buffer
	code := Execute(ctx, args, strings.NewReader(""), &out, &errb)
	if ctx.Err() != nil {
		t.Errorf("mcpscope %s was still running after %s; stopped, it wrote:\nstdout: %s\nstderr: %s",
			strings.Join(args, " "), guard.Run, out.String(), errb.String())
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

func (r result) mustExit(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
}

// withTarget appends "--" and argv.
func withTarget(argv []string, args ...string) []string {
	return append(append(args, "--"), argv...)
}

// legacy pins the handshake to 2025-11-25: the Go SDK server answers
// server→client requests only in the initialize era.
const legacy = "--protocol=2025-11-25"

func TestE2EToolsGoSDK(t *testing.T) {
	r := mcpscope(t, withTarget(peertest.GoSDKEverything(t), "tools")...)
	r.mustExit(t, ExitOK)
	var doc struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not the tools JSON: %v\n%s", err, r.stdout)
	}
	names := map[string]bool{}
	for _, tool := range doc.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"greet", "sample", "elicit (form)", "roots"} {
		if !names[want] {
			t.Errorf("tool %q missing from %v", want, names)
		}
	}
	if strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("stdout is not one compact line: %q", r.stdout)
	}
}

func TestE2ECallGreetGoSDK(t *testing.T) {
	r := mcpscope(t, withTarget(peertest.GoSDKEverything(t), "call", "tools/call", `{"name":"greet","arguments":{"name":"Ada"}}`)...)
	r.mustExit(t, ExitOK)
	var res struct {
		Content []struct{ Type, Text string } `json:"content"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Content) != 1 || res.Content[0].Text != "Hi Ada" {
		t.Fatalf("result %s (%v)", r.stdout, err)
	}
}

func TestE2EListsMark3labs(t *testing.T) {
	argv := peertest.Mark3labsEverything(t)
	r := mcpscope(t, withTarget(argv, "resources")...)
	r.mustExit(t, ExitOK)
	var res struct {
		Resources []json.RawMessage `json:"resources"`
		Templates []json.RawMessage `json:"resourceTemplates"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Resources) == 0 || len(res.Templates) == 0 {
		t.Fatalf("resources: %v\n%s", err, r.stdout)
	}
	r = mcpscope(t, withTarget(argv, "prompts")...)
	r.mustExit(t, ExitOK)
	if !strings.HasPrefix(r.stdout, `{"prompts":[{`) {
		t.Fatalf("prompts: %s", r.stdout)
	}
}

func TestE2ERPCErrorExitsOne(t *testing.T) {
	r := mcpscope(t, withTarget(peertest.GoSDKEverything(t), "call", "tools/call", `{"name":"no such tool"}`)...)
	r.mustExit(t, ExitRPCError)
	if r.stdout != "" {
		t.Errorf("stdout should be empty, got %q", r.stdout)
	}
	if !strings.HasPrefix(r.stderr, "error: tools/call failed: ") || !strings.HasSuffix(r.stderr, "(code -32602 Invalid params)\n") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestE2EAnswersGoSDK(t *testing.T) {
	argv := peertest.GoSDKEverything(t)
	answers := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(answers, []byte("elicitation:\n  - content: {random: xyzzy}\nsampling:\n  - text: Paris\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for tool, want := range map[string]string{"elicit (form)": "xyzzy", "sample": "Paris"} {
		r := mcpscope(t, withTarget(argv, "call", legacy, "--answers", answers, "tools/call", `{"name":"`+tool+`"}`)...)
		r.mustExit(t, ExitOK)
		if !strings.Contains(r.stdout, `"text":"`+want+`"`) {
			t.Errorf("%s: %s", tool, r.stdout)
		}
	}
	dir := t.TempDir()
	r := mcpscope(t, withTarget(argv, "call", legacy, "--root", dir, "--root", "file:///srv/data", "tools/call", `{"name":"roots"}`)...)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, filepath.Base(dir)+":file://"+filepath.ToSlash(dir)+",data:file:///srv/data") {
		t.Errorf("roots: %s", r.stdout)
	}
}

func TestE2ENoAnswerLeftExitsTwo(t *testing.T) {
	r := mcpscope(t, withTarget(peertest.GoSDKEverything(t), "call", legacy, "tools/call", `{"name":"elicit (form)"}`)...)
	r.mustExit(t, ExitUsage)
	if want := "error: the server asked elicitation/create \"provide a random string\": pass --answers FILE or run the TUI\n"; r.stderr != want || r.stdout != "" {
		t.Errorf("stderr %q stdout %q", r.stderr, r.stdout)
	}
}

func TestE2EProgressTypeScript(t *testing.T) {
	t.Parallel()
	r := mcpscope(t, withTarget(peertest.TSEverything(t, "stdio"), "call", "--progress", "tools/call",
		`{"name":"trigger-long-running-operation","arguments":{"duration":1,"steps":2}}`)...)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stderr, "progress 1/2") || !strings.Contains(r.stderr, "progress 2/2") {
		t.Errorf("stderr %q", r.stderr)
	}
	if !strings.Contains(r.stdout, "Long running operation completed") {
		t.Errorf("stdout %q", r.stdout)
	}
}

func TestE2ETrace(t *testing.T) {
	r := mcpscope(t, withTarget(peertest.GoSDKEverything(t), "tools", "--trace")...)
	r.mustExit(t, ExitOK)
	for _, want := range []string{" → control ", "B request tools/list id=", " ← control ", "B result id="} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("trace lacks %q:\n%s", want, r.stderr)
		}
	}
}

func TestE2EConnectionFailureExitsThree(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-server")
	r := mcpscope(t, "tools", "--", missing)
	r.mustExit(t, ExitConnection)
	if !strings.HasPrefix(r.stderr, "error: could not connect to "+missing+": ") || r.stdout != "" {
		t.Errorf("stderr %q", r.stderr)
	}
	r = mcpscope(t, "tools", "wss://127.0.0.1:1/mcp")
	r.mustExit(t, ExitConnection)
	if r.stderr != "error: could not connect to wss://127.0.0.1:1/mcp: the WebSocket upgrade to wss://127.0.0.1:1/mcp: connection refused; is the server listening on 127.0.0.1:1? (dial tcp 127.0.0.1:1: connect: connection refused)\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestE2EUsageErrorsExitTwo(t *testing.T) {
	argv := peertest.GoSDKEverything(t)
	cases := map[string][]string{
		"unknown flag":          withTarget(argv, "tools", "--no-such-flag"),
		"missing METHOD":        withTarget(argv, "call"),
		"bad PARAMS_JSON":       withTarget(argv, "call", "tools/call", `{"name":`),
		"unknown command":       withTarget(argv, "toolz"),
		"missing TARGET":        {"tools"},
		"stdio-only flag clash": withTarget(argv, "tools", "--header", "A: b"),
		"bad --env":             withTarget(argv, "tools", "--env", "NOVALUE"),
		"bad --timeout":         withTarget(argv, "tools", "--timeout", "soon"),
		"missing answers file":  withTarget(argv, "tools", "--answers", filepath.Join(t.TempDir(), "none.yaml")),
	}
	for name, args := range cases {
		r := mcpscope(t, args...)
		if r.code != ExitUsage || !strings.HasPrefix(r.stderr, "error: ") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q", name, r.code, r.stderr)
		}
	}
}

func TestE2EStubServerMisbehaviour(t *testing.T) {
	t.Parallel()
	run := func(mode string, args ...string) result {
		argv, env := stubArgv(t, mode)
		return mcpscope(t, withTarget(argv, append([]string{"tools", "--env", env}, args...)...)...)
	}
	r := run("noisy")
	r.mustExit(t, ExitOK)
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != 6 || lines[0] != `warning: the server wrote a non-JSON line on stdout: "Hello 0, I log to stdout"` ||
		lines[5] != "warning: 3 more undecodable frames from the server were not shown" {
		t.Errorf("noisy stderr:\n%s", r.stderr)
	}
	if r.stdout != `{"tools":[{"name":"only","inputSchema":{"type":"object"}}]}`+"\n" {
		t.Errorf("noisy stdout %q", r.stdout)
	}

	r = run("huge", "--max-frame-size", "1024")
	r.mustExit(t, ExitOK)
	if !strings.HasPrefix(r.stderr, "warning: the server wrote a line on stdout of 4") || !strings.Contains(r.stderr, "over the 1024-byte limit") {
		t.Errorf("huge stderr %q", r.stderr)
	}

	r = run("badversion")
	r.mustExit(t, ExitProtocol)
	if !strings.Contains(r.stderr, "1999-01-01") {
		t.Errorf("badversion stderr %q", r.stderr)
	}

	// Whichever request the silence hits first (server/discover falls back
	// to initialize), the run ends in a timeout.
	r = run("silent", "--timeout", "1s")
	r.mustExit(t, ExitTimeout)
	if !strings.HasPrefix(r.stderr, "error: ") || !strings.Contains(r.stderr, "timed out after 1s") {
		t.Errorf("silent stderr %q", r.stderr)
	}
}

func TestE2EVersion(t *testing.T) {
	r := mcpscope(t, "version")
	r.mustExit(t, ExitOK)
	if r.stdout != "mcpscope "+Version()+"\n" {
		t.Errorf("stdout %q", r.stdout)
	}
}

// writeAnswers writes an answers file and returns its path.
func writeAnswers(t *testing.T, yaml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestE2EConformanceAnswers(t *testing.T) {
	argv := []string{peertest.GoSDKConformance(t)}

	// 2026-07-28: the question arrives inside an input_required result.
	answers := writeAnswers(t, "elicitation:\n  - content: {name: Ada}\n")
	r := mcpscope(t, withTarget(argv, "call", "--answers", answers, "tools/call", `{"name":"test_input_required_result_elicitation"}`)...)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "Hello, Ada!") {
		t.Errorf("input_required elicitation: %s", r.stdout)
	}

	// An accepted form with no content takes every default of the schema.
	answers = writeAnswers(t, "elicitation:\n  - action: accept\n")
	r = mcpscope(t, withTarget(argv, "call", legacy, "--answers", answers, "tools/call", `{"name":"test_elicitation_sep1034_defaults"}`)...)
	r.mustExit(t, ExitOK)
	if !strings.Contains(r.stdout, "content=map[age:30 name:John Doe score:95.5 status:active verified:true]") {
		t.Errorf("schema defaults: %s", r.stdout)
	}
}
