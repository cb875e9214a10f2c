package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/recordings"
)

// sentRequest is one request mcpscope wrote to the server, as a recording
// holds it.
type sentRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// sentRequests reads the recording at path (mcpscope export --format
// jsonl) and returns the requests mcpscope sent, in order.
func sentRequests(t *testing.T, path string) []sentRequest {
	t.Helper()
	r := mcpscope(t, "export", "--format", "jsonl", path)
	r.mustExit(t, ExitOK)
	var out []sentRequest
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var rec struct {
			Dir  string `json:"dir"`
			Text string `json:"text"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Dir != "out" {
			continue
		}
		var m sentRequest
		if json.Unmarshal([]byte(rec.Text), &m) == nil && m.Method != "" {
			out = append(out, m)
		}
	}
	return out
}

// methodsOf lists the methods of reqs.
func methodsOf(reqs []sentRequest) string {
	var ms []string
	for _, r := range reqs {
		ms = append(ms, r.Method)
	}
	return strings.Join(ms, " ")
}

// recordPath is a fresh recording path in the test's folder.
func recordPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "run"+recordings.Ext)
}

// demoStdio is the argv and --env that start `mcpscope serve --stdio`.
func demoStdio(t *testing.T) []string {
	argv, env := stubArgv(t, serveStdioMode)
	return append([]string{"--env", env, "--"}, argv...)
}

// `mcpscope tool NAME K=V… TARGET` calls the tool with its arguments typed
// by its inputSchema, against the TypeScript, Go SDK and mark3labs
// everything servers and the demo.
func TestShortFormToolPeers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		argv func(t testing.TB) []string
		args []string
		want string
	}{
		{"typescript get-sum", func(t testing.TB) []string { return peertest.TSEverything(t, "stdio") }, []string{"get-sum", "a=2", "b=3"}, "The sum of 2 and 3 is 5."},
		{"typescript echo", func(t testing.TB) []string { return peertest.TSEverything(t, "stdio") }, []string{"echo", "message=hi"}, "Echo: hi"},
		{"go-sdk greet", peertest.GoSDKEverything, []string{"greet", "name=Ada"}, "Hi Ada"},
		{"mark3labs add", peertest.Mark3labsEverything, []string{"add", "a=2", "b=3.5"}, "The sum of 2.000000 and 3.500000 is 5.500000."},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := mcpscope(t, withTarget(c.argv(t), append([]string{"tool"}, c.args...)...)...)
			if got := toolText(t, r); got != c.want {
				t.Fatalf("tool text %q, want %q", got, c.want)
			}
		})
	}
	t.Run("demo", func(t *testing.T) {
		t.Parallel()
		r := mcpscope(t, append([]string{"tool", "echo", "message=over stdio"}, demoStdio(t)...)...)
		if got := toolText(t, r); got != "over stdio" {
			t.Fatalf("tool text %q", got)
		}
	})
}

// A wrong type, a key the tool does not declare, a required key left out
// and an unknown tool are refused with exit 2 in the schema's words, and
// no tools/call goes out: the recording holds the listing only.
func TestShortFormToolRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"wrong type", []string{"get-sum", "a=two", "b=3"}, `error: tool "get-sum": argument a: "two" is not a number (number, "First number")`},
		{"unknown key", []string{"echo", "mesage=hi"}, `error: tool "echo": argument mesage: not an argument of the tool; it takes message`},
		{"missing", []string{"get-sum", "a=1"}, `error: tool "get-sum": missing required argument b (number, "Second number")`},
		{"unknown tool", []string{"get-sun", "a=1"}, `error: the server has no tool "get-sun"; did you mean "get-sum"? (mcpscope tools lists them)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := recordPath(t)
			r := mcpscope(t, withTarget(peertest.TSEverything(t, "stdio"), append([]string{"tool", "--record", rec}, c.args...)...)...)
			r.mustExit(t, ExitUsage)
			if strings.TrimSpace(r.stderr) != c.want || r.stdout != "" {
				t.Fatalf("stderr %q\nwant   %q\nstdout %q", r.stderr, c.want, r.stdout)
			}
			if got := methodsOf(sentRequests(t, rec)); strings.Contains(got, "tools/call") || !strings.Contains(got, "tools/list") {
				t.Fatalf("sent %s; want a tools/list and no tools/call", got)
			}
		})
	}
}

// `mcpscope prompt` and `mcpscope read` get a prompt and read a resource
// of the TypeScript everything server, mark3labs' and the demo.
func TestShortFormPromptAndRead(t *testing.T) {
	t.Parallel()
	ts := func(t *testing.T) []string { return peertest.TSEverything(t, "stdio") }
	for _, c := range []struct {
		name string
		args func(t *testing.T) []string
		code int
		want string // in stdout, or stderr when the code is not 0
	}{
		{"typescript prompt", func(t *testing.T) []string {
			return withTarget(ts(t), "prompt", "args-prompt", "city=Paris")
		}, ExitOK, `"text":"What's weather in Paris?"`},
		{"typescript prompt missing", func(t *testing.T) []string {
			return withTarget(ts(t), "prompt", "args-prompt", "state=CA")
		}, ExitUsage, `error: prompt "args-prompt": missing required argument city ("Name of the city")`},
		{"mark3labs prompt", func(t *testing.T) []string {
			return withTarget(peertest.Mark3labsEverything(t), "prompt", "complex_prompt", "temperature=0.5", "style=terse")
		}, ExitOK, `temperature=0.5, style=terse`},
		{"demo prompt", func(t *testing.T) []string {
			return append([]string{"prompt", "plan_scaffold", "toolchain=go"}, demoStdio(t)...)
		}, ExitOK, `I start a new go project.`},
		{"typescript read", func(t *testing.T) []string {
			return withTarget(ts(t), "read", "demo://resource/static/document/architecture.md")
		}, ExitOK, `"uri":"demo://resource/static/document/architecture.md"`},
		{"demo read", func(t *testing.T) []string {
			return append([]string{"read", "template://gitignore/rust/cli"}, demoStdio(t)...)
		}, ExitOK, `"text":"/target\n**/*.rs.bk\n"`},
		{"read two URIs", func(t *testing.T) []string {
			return withTarget(ts(t), "read", "a://x", "extra")
		}, ExitUsage, `error: read takes one URI before the TARGET, got "extra" after it`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := mcpscope(t, c.args(t)...)
			r.mustExit(t, c.code)
			got := r.stdout
			if c.code != ExitOK {
				got = r.stderr
			}
			if !strings.Contains(got, c.want) {
				t.Fatalf("output %q does not hold %q (stderr %q)", got, c.want, r.stderr)
			}
		})
	}
}

// cwdMode makes the test binary a stdio server whose tools/call answers
// its working folder.
const cwdMode = "cwd"

func init() {
	stubRequestHooks[cwdMode] = func(out *bufio.Writer, method string, id json.RawMessage) bool {
		if method != "tools/call" {
			return false
		}
		dir, _ := os.Getwd()
		text, _ := json.Marshal(dir)
		out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[{"type":"text","text":` + string(text) + `}]}}` + "\n")
		out.Flush()
		return true
	}
}

// --cwd starts a stdio server in the folder; a folder that does not exist
// and a network target are refused with exit 2.
func TestCwdStartsTheServerThere(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	argv, env := stubArgv(t, cwdMode)
	r := mcpscope(t, withTarget(argv, "call", "--env", env, "--cwd", dir, "tools/call", callTool(t, "where", nil))...)
	if got := toolText(t, r); got != dir {
		t.Fatalf("the server ran in %q, want %q", got, dir)
	}
	missing := filepath.Join(dir, "absent")
	r = mcpscope(t, withTarget(argv, "call", "--env", env, "--cwd", missing, "tools/list")...)
	r.mustExit(t, ExitUsage)
	if want := "error: --cwd \"" + missing + "\": no such folder\n"; r.stderr != want {
		t.Fatalf("stderr %q, want %q", r.stderr, want)
	}
	r = mcpscope(t, "call", "--cwd", dir, "ping", "http://127.0.0.1:1/mcp")
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, "--cwd only applies to a stdio server") {
		t.Fatalf("stderr %q", r.stderr)
	}
}

// The built binary exits 0 for a tool that succeeds, 1 for one whose
// result is isError (the result printed, one line on stderr), and 2 for
// arguments refused before sending.
func TestShortFormExitCodesOfTheBinary(t *testing.T) {
	t.Parallel()
	conformance := []string{peertest.GoSDKConformance(t)}
	r := runBuilt(t, withTarget(conformance, "tool", "test_simple_text")...)
	r.mustExit(t, ExitOK)
	r = runBuilt(t, withTarget(conformance, "tool", "test_error_handling")...)
	r.mustExit(t, ExitRPCError)
	if !strings.Contains(r.stdout, `"isError":true`) || !strings.HasPrefix(r.stderr, `error: tool "test_error_handling" failed (isError): `) {
		t.Fatalf("stdout %q\nstderr %q", r.stdout, r.stderr)
	}
	r = runBuilt(t, withTarget(conformance, "tool", "test_sampling", "prompt=hi", "extra=1")...)
	r.mustExit(t, ExitUsage)
	if r.stderr != "error: tool \"test_sampling\": argument extra: not an argument of the tool; it takes prompt\n" {
		t.Fatalf("stderr %q", r.stderr)
	}
}

// KEY=@- takes the value from standard input and KEY=@FILE from a file,
// as they are (the demo's echo says them back).
func TestShortFormToolArgumentFromStdinAndFile(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	var out, errb bytes.Buffer
	code := Execute(ctx, append([]string{"tool", "echo", "message=@-"}, demoStdio(t)...), strings.NewReader("from stdin\n"), &out, &errb)
	if got := toolText(t, result{code: code, stdout: out.String(), stderr: errb.String()}); got != "from stdin\n" {
		t.Fatalf("echo %q", got)
	}
	file := filepath.Join(t.TempDir(), "message.txt")
	if err := os.WriteFile(file, []byte("from a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := mcpscope(t, append([]string{"tool", "echo", "message=@" + file}, demoStdio(t)...)...)
	if got := toolText(t, r); got != "from a file" {
		t.Fatalf("echo %q", got)
	}
}

// Over the demo's tool frames (seed 004), which carry tools/call only,
// tool sends the words typed without a schema and says so; over its
// Streamable HTTP it checks them as everywhere.
func TestShortFormToolWithoutAListing(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"tools-http", "http"} {
		target, stop, err := startHTTPDemo(context.Background(), transport)
		if err != nil {
			t.Fatal(err)
		}
		r := mcpscope(t, "tool", "--transport", transport, "echo", "message=hi", target.URL.String())
		_ = stop()
		if got := toolText(t, r); got != "hi" {
			t.Fatalf("%s: echo %q", transport, got)
		}
		warned := strings.Contains(r.stderr, `warning: the server does not list its tools`)
		if warned != (transport == "tools-http") {
			t.Fatalf("%s: stderr %q", transport, r.stderr)
		}
	}
}
