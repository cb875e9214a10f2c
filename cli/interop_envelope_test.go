package cli

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// Hostile servers that answer with a broken envelope, played by the stub's
// "answer" mode (stub_answer_test.go) through the whole CLI. Each run has a
// --timeout of guard.Run; the test's own wait for the broken answer
// to end the run is guard.Hang, so a run that waits for the timeout
// fails the test as a wait, not as a timeout.
var envelopeTimeout = "--timeout=" + guard.Run.String()

// envelopeBound is how long a test waits for a broken answer to end the run.
const envelopeBound = guard.Hang

// stubAnswering runs mcpscope args against the stub answering with
// template (see stubAnswerEnv), within envelopeBound. A tools/call gets
// the template, and the tools/list that follows it the stub's own list.
func stubAnswering(t *testing.T, template string, args ...string) result {
	t.Helper()
	argv, env := stubArgv(t, "answer")
	full := append([]string{args[0], "--env", env, "--env", stubAnswerEnv + "=" + template, envelopeTimeout}, args[1:]...)
	if len(args) > 1 && args[1] == "tools/call" {
		full = append(full, "--env", stubAnswerToEnv+"=tools/call")
	}
	return mcpscopeWithin(t, envelopeBound, withTarget(argv, full...)...)
}

// errorLine returns the first line of stderr that starts with "error: ".
func errorLine(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "error: ") {
			return l
		}
	}
	return ""
}

// TestEnvelopeBrokenAnswerExits5: every way of breaking the envelope of
// the answer to tools/call ends the run at once with exit 5, an error line
// naming what was wrong and a warning about the line; stdout stays empty.
func TestEnvelopeBrokenAnswerExits5(t *testing.T) {
	t.Parallel()
	const prefix = "error: protocol violation: the answer to tools/call (id 3) is unusable: "
	for _, c := range []struct{ name, template, why string }{
		{"result and error", `{"jsonrpc":"2.0","id":{id},"result":{},"error":{"code":1,"message":"x"}}`, `it has both "result" and "error"`},
		{"neither", `{"jsonrpc":"2.0","id":{id}}`, `it has neither "result" nor "error"`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":{id},"result":{}}`, `"jsonrpc" is "1.0", want "2.0"`},
		{"jsonrpc missing", `{"id":{id},"result":{}}`, `"jsonrpc" is missing, want "2.0"`},
		{"error null", `{"jsonrpc":"2.0","id":{id},"error":null}`, `"error" is null`},
		{"code with a fraction", `{"jsonrpc":"2.0","id":{id},"error":{"code":-32000.5,"message":"x"}}`, `"error"."code" is -32000.5, not an integer`},
		{"code a string", `{"jsonrpc":"2.0","id":{id},"error":{"code":"abc","message":"x"}}`, `"error"."code" is "abc", not an integer`},
		{"trailing garbage", `{"jsonrpc":"2.0","id":{id},"result":{}} trailing`, `it has data after the object, at byte offset 37: trailing`},
		{"duplicate id", `{"jsonrpc":"2.0","id":{id},"id":{id},"result":{}}`, `it has "id" twice`},
		{"string id", `{"jsonrpc":"2.0","id":"{id}","result":{}}`, `it carries the id "3" where the request's id is 3`},
		{"nested 100k deep", `{"jsonrpc":"2.0","id":{id},"result":{deep}}`, `it is nested deeper than 10000 levels`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := stubAnswering(t, c.template, "call", "tools/call", `{"name":"x"}`)
			r.mustExit(t, ExitProtocol)
			if got := errorLine(r.stderr); got != prefix+c.why {
				t.Errorf("error line %q\nwant       %q\nstderr: %s", got, prefix+c.why, r.stderr)
			}
			if c.name != "string id" && !strings.Contains(r.stderr, "warning: the server wrote a line on stdout that is not a JSON-RPC message: ") {
				t.Errorf("no warning about the line: %s", r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q", r.stdout)
			}
		})
	}
}

// TestEnvelopeLineOverTheLimitExits5: an answer over --max-frame-size whose
// kept head shows its id fails tools/list at once.
func TestEnvelopeLineOverTheLimitExits5(t *testing.T) {
	t.Parallel()
	head, tail := `{"jsonrpc":"2.0","id":{id},"result":{"tools":[{"name":"`, `"}]}}`
	r := stubAnswering(t, head+"{pad}"+tail, "tools", "--max-frame-size=65536")
	r.mustExit(t, ExitProtocol)
	size := strconv.Itoa(len(strings.Replace(head, "{id}", "3", 1)) + 1<<20 + len(tail) + 1)
	want := "error: protocol violation: the answer to tools/list (id 3) is unusable: server wrote a line of " + size + " bytes, over the 65536-byte limit; only its head is kept (raise the limit with --max-frame-size N)"
	if got := errorLine(r.stderr); got != want {
		t.Errorf("error line %q\nwant       %q", got, want)
	}
	if first := strings.SplitN(r.stderr, "\n", 2)[0]; first != "warning: the server wrote a line on stdout of "+size+" bytes, over the 65536-byte limit (--max-frame-size); it was dropped" {
		t.Errorf("first line %q", first)
	}
}

// TestEnvelopeToleratedText: a BOM before the answer and invalid UTF-8 in
// it are read, with a warning each; the run succeeds.
func TestEnvelopeToleratedText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, template, warning, stdout string }{
		{"byte order mark", `{bom}{"jsonrpc":"2.0","id":{id},"result":{"content":[]}}`,
			"warning: a line on stdout from the server was read, but the message started with a UTF-8 byte order mark, which was skipped",
			`{"content":[]}`},
		{"invalid UTF-8", `{"jsonrpc":"2.0","id":{id},"result":{"content":[{"type":"text","text":"a{ff}b"}]}}`,
			"warning: a line on stdout from the server was read, but the message had invalid UTF-8 at byte offset 69, read as U+FFFD",
			`{"content":[{"type":"text","text":"a` + "\xff" + `b"}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := stubAnswering(t, c.template, "call", "tools/call", `{"name":"x"}`)
			r.mustExit(t, ExitOK)
			if r.stderr != c.warning+"\n" {
				t.Errorf("stderr %q\nwant   %q", r.stderr, c.warning+"\n")
			}
			if r.stdout != c.stdout+"\n" {
				t.Errorf("stdout %q", r.stdout)
			}
		})
	}
}

// TestEnvelopeStrayAnswersWarn: answers to an id already answered, to an id
// never sent and with id null are shown as warnings; the call succeeds.
func TestEnvelopeStrayAnswersWarn(t *testing.T) {
	t.Parallel()
	template := strings.Join([]string{
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","id":77,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error \u001b]0;pwned\u0007"}}`,
		`{"jsonrpc":"2.0","id":{id},"result":{"content":[]}}`,
	}, "\n")
	r := stubAnswering(t, template, "call", "tools/call", `{"name":"x"}`)
	r.mustExit(t, ExitOK)
	want := strings.Join([]string{
		"warning: the server answered id 2 a second time; it was ignored",
		"warning: the server answered id 77, which mcpscope never sent; it was ignored",
		`warning: the server sent an answer with id null, which names no request: error -32700 "Parse error \x1b]0;pwned\a"; it was ignored`,
	}, "\n") + "\n"
	if r.stderr != want {
		t.Errorf("stderr %q\nwant   %q", r.stderr, want)
	}
}

// TestEnvelopeInitializeResultNotAnObject: an initialize result of 42 is
// named in protocol words, not as a Go type; exit 5.
func TestEnvelopeInitializeResultNotAnObject(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "answer")
	r := mcpscopeWithin(t, envelopeBound, withTarget(argv, "tools", "--env", env, "--env", stubAnswerToEnv+"=initialize",
		"--env", stubAnswerEnv+`={"jsonrpc":"2.0","id":{id},"result":42}`, envelopeTimeout)...)
	r.mustExit(t, ExitProtocol)
	if got := errorLine(r.stderr); !strings.HasSuffix(got, ": protocol violation: the initialize result is not an object: 42") {
		t.Errorf("error line %q", got)
	}
}

// TestEnvelopeToolsEntriesChecked: a tools listing whose entries are not
// objects with a string name is a protocol violation naming the index.
func TestEnvelopeToolsEntriesChecked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ tools, want string }{
		{`[{"name":"a"},[1,"a",null]]`, `tools[1] from tools/list is not an object: [1,"a",null]`},
		{`[null]`, `tools[0] from tools/list is not an object: null`},
		{`[{"name":"a"},{"name":7}]`, `tools[1] from tools/list has no string "name": {"name":7}`},
		{`[{"title":"\u001b[2J"}]`, `tools[0] from tools/list has no string "name": {"title":"\u001b[2J"}`},
	} {
		r := stubAnswering(t, `{"jsonrpc":"2.0","id":{id},"result":{"tools":`+c.tools+`}}`, "tools")
		r.mustExit(t, ExitProtocol)
		if got, want := r.stderr, "error: protocol violation: "+c.want+"\n"; got != want || r.stdout != "" {
			t.Errorf("stderr %q\nwant   %q\nstdout %q", got, want, r.stdout)
		}
	}
}
