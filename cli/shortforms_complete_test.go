package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// TestCompleteTSEverything: prompt --complete and read TEMPLATE --complete
// against the TypeScript reference server: the other words go as context
// (completable-prompt's names depend on the department), JSON when piped,
// one value a line at a terminal.
func TestCompleteTSEverything(t *testing.T) {
	t.Parallel()
	argv := peertest.TSEverything(t, "stdio")
	r := mcpscope(t, withTarget(argv, "prompt", "completable-prompt", "--complete", "name", "department=Sales")...)
	r.mustExit(t, ExitOK)
	if r.stdout != `{"values":["David","Eve","Frank"],"total":3,"hasMore":false}`+"\n" {
		t.Errorf("name with department Sales: %q", r.stdout)
	}
	r = mcpscopeAtTerminal(t, 80, withTarget(argv, "prompt", "completable-prompt", "--complete", "department", "department=S")...)
	r.mustExit(t, ExitOK)
	if r.stdout != "Sales\nSupport\n" || r.stderr != "" {
		t.Errorf("department S at a terminal: %q, stderr %q", r.stdout, r.stderr)
	}
	r = mcpscope(t, withTarget(argv, "prompt", "resource-prompt", "--complete", "resourceType")...)
	r.mustExit(t, ExitOK)
	if r.stdout != `{"values":["Text","Blob"],"total":2,"hasMore":false}`+"\n" {
		t.Errorf("resource-prompt's resourceType with no text: %q", r.stdout)
	}
	r = mcpscope(t, withTarget(argv, "read", "demo://resource/dynamic/text/{resourceId}", "--complete", "resourceId", "resourceId=12")...)
	r.mustExit(t, ExitOK)
	if r.stdout != `{"values":["12"],"total":1,"hasMore":false}`+"\n" {
		t.Errorf("resourceId 12: %q", r.stdout)
	}
	r = mcpscope(t, withTarget(argv, "read", "demo://nope/{x}", "--complete", "x")...)
	r.mustExit(t, ExitRPCError)
	if r.stdout != "" || !strings.Contains(r.stderr, "Resource template demo://nope/{x} not found (code -32602") {
		t.Errorf("an unknown template: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = mcpscope(t, withTarget(argv, "prompt", "completable-prompt", "--complete", "team")...)
	r.mustExit(t, ExitUsage)
	if !strings.Contains(r.stderr, `--complete "team": not an argument of the prompt; it takes "department", "name"`) {
		t.Errorf("an argument the prompt lacks: %q", r.stderr)
	}
}

// TestCompleteGoConformanceAndDemo: the Go SDK's conformance server
// answers every completion with no values; the demo suggests its
// toolchains and the variants of its templates, narrowed by context.
func TestCompleteGoConformanceAndDemo(t *testing.T) {
	t.Parallel()
	conf := []string{peertest.GoSDKConformance(t)}
	r := mcpscopeAtTerminal(t, 80, withTarget(conf, "prompt", "test_prompt_with_arguments", "--complete", "arg1", "arg2=x")...)
	r.mustExit(t, ExitOK)
	if r.stdout != "(no suggestions)\n" {
		t.Errorf("conformance server at a terminal: %q", r.stdout)
	}
	r = mcpscope(t, withTarget(conf, "read", "test://template/{id}/data", "--complete", "id")...)
	r.mustExit(t, ExitOK)
	if !strings.HasPrefix(r.stdout, `{"values":[]`) {
		t.Errorf("conformance server, template: %q", r.stdout)
	}

	r = mcpscope(t, append([]string{"prompt", "plan_scaffold", "--complete", "toolchain", "toolchain=py"}, demoStdio(t)...)...)
	r.mustExit(t, ExitOK)
	if r.stdout != `{"values":["python"],"total":1,"hasMore":false}`+"\n" {
		t.Errorf("demo toolchain py: %q", r.stdout)
	}
	r = mcpscope(t, append([]string{"read", "template://{category}/{toolchain}/{variant}", "--complete", "variant",
		"toolchain=go", "--format", "text"}, demoStdio(t)...)...)
	r.mustExit(t, ExitOK)
	if r.stdout != "cli\n" {
		t.Errorf("demo variants of go: %q", r.stdout)
	}
}

// completeStub runs read --complete against the stub answering
// completion/complete with template (stubAnswerEnv), at a terminal when
// width > 0.
func completeStub(t *testing.T, width int, template string, args ...string) result {
	t.Helper()
	argv, env := stubArgv(t, "answer")
	full := append([]string{"read", "x://{v}", "--complete", "v", "--env", env, "--env", stubAnswerEnv + "=" + template,
		"--env", stubAnswerToEnv + "=completion/complete", envelopeTimeout}, args...)
	if width > 0 {
		return mcpscopeAtTerminal(t, width, withTarget(argv, full...)...)
	}
	return mcpscopeWithin(t, envelopeBound, withTarget(argv, full...)...)
}

// TestCompleteHostile: a server that does not advertise completions is
// asked anyway with a warning; 10,000 values keep 100; escape sequences
// and line breaks reach a terminal escaped; hasMore with no values says
// so; a malformed answer exits 5, an error 1, silence 4 at --timeout.
func TestCompleteHostile(t *testing.T) {
	t.Parallel()
	values := make([]string, 10000)
	for i := range values {
		values[i] = fmt.Sprintf("v%d", i)
	}
	doc, _ := json.Marshal(map[string]any{"completion": map[string]any{"values": values, "hasMore": true}})
	r := completeStub(t, 0, `{"jsonrpc":"2.0","id":{id},"result":`+string(doc)+`}`)
	r.mustExit(t, ExitOK)
	var got struct {
		Values  []string `json:"values"`
		HasMore bool     `json:"hasMore"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got.Values) != 100 || got.Values[99] != "v99" || !got.HasMore {
		t.Errorf("10,000 values: %d kept, %v", len(got.Values), err)
	}
	for _, want := range []string{"warning: the server does not advertise completions", "warning: 9900 suggested values dropped: over 100 values"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}

	r = completeStub(t, 80, `{"jsonrpc":"2.0","id":{id},"result":{"completion":{"values":["\u001b]0;PWNED\u0007\u001b[2J","two\nlines"],"hasMore":true}}}`)
	r.mustExit(t, ExitOK)
	if r.stdout != `\x1b]0;PWNED\x07\x1b[2J`+"\n"+`two\nlines`+"\n(the server has more)\n" {
		t.Errorf("hostile values at a terminal: %q", r.stdout)
	}
	r = completeStub(t, 80, `{"jsonrpc":"2.0","id":{id},"result":{"completion":{"values":[],"total":5,"hasMore":true}}}`)
	if r.stdout != "(0 of 5; the server has more)\n" {
		t.Errorf("hasMore with no values: %q", r.stdout)
	}

	r = completeStub(t, 0, `{"jsonrpc":"2.0","id":{id},"result":{"completion":{"values":[1]}}}`)
	r.mustExit(t, ExitProtocol)
	r = completeStub(t, 0, `{"jsonrpc":"2.0","id":{id},"error":{"code":-32602,"message":"no completions for v"}}`)
	r.mustExit(t, ExitRPCError)
	if r.stdout != "" || !strings.Contains(r.stderr, "no completions for v (code -32602") {
		t.Errorf("an error answer: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = completeStub(t, 0, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"thinking"}}`, "--timeout=1s")
	r.mustExit(t, ExitTimeout)
}
