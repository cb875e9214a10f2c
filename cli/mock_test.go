package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// `mcpscope mock RECORDING`: sessions recorded against the demo and the
// real servers, served again by the mock over stdio, Streamable HTTP and
// WebSocket, give the same answers; replay --against the mock reports no
// difference.

// mockArgsMode makes the test binary run `mcpscope mock` with the
// arguments it was started with; proxyArgsMode `mcpscope proxy`.
const (
	mockArgsMode  = "mock-args"
	proxyArgsMode = "proxy-args"
)

func init() {
	for mode, command := range map[string]string{mockArgsMode: "mock", proxyArgsMode: "proxy"} {
		stubTakeovers[mode] = func() int {
			return Execute(context.Background(), append([]string{command}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr)
		}
	}
}

// stubTarget returns the mcpscope flags and target that start the test
// binary in mode with args: --env … -- EXE args….
func stubTarget(t *testing.T, mode string, args ...string) []string {
	argv, env := stubArgv(t, mode)
	return append([]string{"--env", env, "--"}, append(argv, args...)...)
}

// recordPeer runs an mcpscope command against target (its flags, -- and
// argv) with --record and returns the recording's path and what the
// command printed.
func recordPeer(t *testing.T, target []string, args ...string) (string, result) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.mcpscope.jsonl")
	r := mcpscope(t, append(append(args, "--record", path), target...)...)
	r.mustExit(t, ExitOK)
	return path, r
}

// mockURL matches the endpoint `mcpscope mock --http|--ws` prints.
var mockURL = regexp.MustCompile(`mcpscope mock: (?:Streamable HTTP|WebSocket) at ((?:http|ws)://127\.0\.0\.1:[0-9]+/mcp)\n`)

// startMock serves rec with `mcpscope mock` and flag (--http or --ws) on
// a port it picks, and returns its URL; the test's end stops it.
func startMock(t *testing.T, flag, rec string) string {
	t.Helper()
	ctx, cancel := serveContext()
	m, errw, exit := startServe(t, ctx, mockURL, "mock", flag, "127.0.0.1:0", rec)
	t.Cleanup(func() { stopServe(t, cancel, errw, exit) })
	return m[1]
}

// The demo: a call through the mock answers as the demo did; replay
// --against the mock is all ok; other arguments get the error naming the
// closest recorded call, and an unknown method the nearest method.
func TestMockDemo(t *testing.T) {
	t.Parallel()
	call := []string{"call", "tools/call", `{"name":"echo","arguments":{"message":"héllo"}}`}
	rec, want := recordPeer(t, demoServer(t), call...)
	r := mcpscope(t, append(call, stubTarget(t, mockArgsMode, rec)...)...)
	r.mustExit(t, ExitOK)
	if r.stdout != want.stdout {
		t.Errorf("through the mock: %s\nthe demo: %s", r.stdout, want.stdout)
	}
	r = mcpscope(t, append([]string{"replay", rec, "--against"}, stubTarget(t, mockArgsMode, rec)...)...)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, `ok      tools/call "echo"`, "1 request sent again: 1 ok, 0 differ, 0 skipped")

	r = mcpscope(t, append([]string{"call", "tools/call", `{"name":"echo","arguments":{"message":"other"}}`}, stubTarget(t, mockArgsMode, rec)...)...)
	r.mustExit(t, ExitRPCError)
	if !strings.Contains(r.stderr, `the recording holds no tools/call request with these params; the closest differs in 1 member ($.params.arguments.message: recorded "héllo", got "other"): tools/call {"name":"echo","arguments":{"message":"héllo"}} (code -32602`) {
		t.Errorf("unmatched: %s", r.stderr)
	}
	r = mcpscope(t, append([]string{"call", "tool/call", `{}`}, stubTarget(t, mockArgsMode, rec)...)...)
	r.mustExit(t, ExitRPCError)
	if !strings.Contains(r.stderr, `the recording holds no tool/call request; the closest recorded is tools/call`) {
		t.Errorf("unknown method: %s", r.stderr)
	}

	// A corrupt line is skipped with a warning naming it; the rest serves.
	f, err := os.OpenFile(rec, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("{\"k\":\"frame\",\"dir\":\"sideways\"}\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	r = mcpscope(t, "mock", rec)
	r.mustExit(t, ExitOK)
	if !regexp.MustCompile(`mcpscope mock: warning: line \d+ \(byte \d+\) of the recording is corrupt: unknown direction "sideways"; it is skipped\nmcpscope mock: 4 recorded requests on stdio\n$`).MatchString(r.stderr) {
		t.Errorf("stderr: %s", r.stderr)
	}
}

// The TypeScript reference server: lists, calls, an elicitation answered
// from the recording, and a long operation's progress, sent again in
// order through the mock.
func TestMockTS(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, `
steps:
  - {method: prompts/list}
  - {tool: get-sum, arguments: {a: 2.5, b: 4}}
  - {tool: trigger-elicitation-request}
elicitation:
  - action: accept
    content: {name: Ada, check: true, integer: 7}
`)
	rec, _ := recordPeer(t, withTarget(tsServer(t)), "script", "--answers", answers)
	r := mcpscope(t, append([]string{"replay", rec, "--against"}, stubTarget(t, mockArgsMode, rec)...)...)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, "ok      prompts/list", "ok      capabilities", `ok      tools/call "get-sum"`,
		`ok      tools/call "trigger-elicitation-request"`, "4 requests sent again: 4 ok, 0 differ, 0 skipped")

	call := []string{"call", "--progress", "tools/call", `{"name":"trigger-long-running-operation","arguments":{"duration":0.2,"steps":2}}`}
	rec, want := recordPeer(t, withTarget(tsServer(t)), call...)
	r = mcpscope(t, append(call, stubTarget(t, mockArgsMode, rec)...)...)
	r.mustExit(t, ExitOK)
	if r.stdout != want.stdout || r.stderr != want.stderr || !strings.Contains(r.stderr, "progress 1/2\nprogress 2/2\n") {
		t.Errorf("through the mock:\n%s%s\nthe server:\n%s%s", r.stdout, r.stderr, want.stdout, want.stderr)
	}
}

// The Go SDK everything server, served again over Streamable HTTP.
func TestMockGoSDKOverHTTP(t *testing.T) {
	t.Parallel()
	rec, _ := recordPeer(t, withTarget(peertest.GoSDKEverything(t)), "call", "tools/call", `{"name":"greet","arguments":{"name":"Ada"}}`)
	url := startMock(t, "--http", rec)
	r := mcpscope(t, "replay", rec, "--against", url)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, `ok      tools/call "greet"`, "1 request sent again: 1 ok, 0 differ, 0 skipped")
}

// The mark3labs everything server, served again over WebSocket: the
// tool list comes back the same.
func TestMockMark3labsOverWS(t *testing.T) {
	t.Parallel()
	rec, want := recordPeer(t, withTarget(peertest.Mark3labsEverything(t)), "tools")
	url := startMock(t, "--ws", rec)
	r := mcpscope(t, "tools", url)
	r.mustExit(t, ExitOK)
	if r.stdout != want.stdout {
		t.Errorf("through the mock: %s\nthe server: %s", r.stdout, want.stdout)
	}
	r = mcpscope(t, "replay", rec, "--against", url)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, "ok      tools/list", "1 request sent again: 1 ok, 0 differ, 0 skipped")
}

// A host's session recorded by `mcpscope proxy` serves as well.
func TestMockProxiedSession(t *testing.T) {
	t.Parallel()
	proxied := filepath.Join(t.TempDir(), "proxied.mcpscope.jsonl")
	call := []string{"call", "tools/call", `{"name":"echo","arguments":{"message":"through"}}`}
	want := mcpscope(t, append(call, stubTarget(t, proxyArgsMode, append([]string{"--name", "ts", "--record", proxied, "--"}, tsServer(t)...)...)...)...)
	want.mustExit(t, ExitOK)
	r := mcpscope(t, append(call, stubTarget(t, mockArgsMode, proxied)...)...)
	r.mustExit(t, ExitOK)
	if r.stdout != want.stdout {
		t.Errorf("through the mock: %s\nthrough the proxy: %s", r.stdout, want.stdout)
	}
}

// A file that is no recording, or one that holds no answered request, is
// refused with exit 2; two transports at once too.
func TestMockUsage(t *testing.T) {
	t.Parallel()
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, []byte("not a recording\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mock", empty}, "not an mcpscope recording"},
		{[]string{"mock"}, "mock takes one RECORDING"},
		{[]string{"mock", "--http", "127.0.0.1:0", "--ws", "127.0.0.1:0", empty}, "give one"},
		{[]string{"mock", "--ignore", "params", empty}, `--ignore "params"`},
	} {
		r := mcpscope(t, c.args...)
		r.mustExit(t, ExitUsage)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: %s", c.args, r.stderr)
		}
	}
}

// The demo over Streamable HTTP in 2026-07-28 (server/discover, no
// initialize, no session): served again over Streamable HTTP, stateless
// requests are answered and the tool list and a call come back the same.
func TestMockDemoStatelessHTTP(t *testing.T) {
	t.Parallel()
	ctx, cancel := serveContext()
	m, errw, exit := startServe(t, ctx, mcpURLLine, "serve", "--http", "127.0.0.1:0", "--root", t.TempDir())
	demo := m[1] + "/mcp"
	rec, want := recordPeer(t, []string{demo}, "tools")
	stopServe(t, cancel, errw, exit)
	if !strings.Contains(string(readFile(t, rec)), `"method\":\"server/discover\"`) {
		t.Fatal("the demo's session was not 2026-07-28")
	}
	url := startMock(t, "--http", rec)
	r := mcpscope(t, "tools", url)
	r.mustExit(t, ExitOK)
	if r.stdout != want.stdout {
		t.Errorf("through the mock: %s\nthe demo: %s", r.stdout, want.stdout)
	}
	r = mcpscope(t, "replay", rec, "--against", url)
	r.mustExit(t, ExitOK)
	stdoutIs(t, r, "ok      tools/list", "1 request sent again: 1 ok, 0 differ, 0 skipped")
}
