package cli

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Interoperability with the official Go SDK's everything example (stdio).
// It speaks 2026-07-28, so a session without --protocol is modern; its
// sample, elicit and roots tools ask the client questions, which the SDK
// only allows in the legacy era (--protocol 2025-11-25).
//
// Already in cli/e2e_test.go and not repeated: tools (TestE2EToolsGoSDK),
// greet (TestE2ECallGreetGoSDK), elicit (form) accepted, sample and --root
// (TestE2EAnswersGoSDK).
//
// Not covered, because the server has no such feature: progress and a
// timeout on a long call (no tool runs long or reports progress), MRTR
// rounds (no tool answers input_required).

// TestInteropGoSDKHandshake: without --protocol the session is modern
// (server/discover, no initialize), and the server treats it so: its sample
// tool refuses to send a server→client request on 2026-07-28. With
// --protocol 2025-11-25 the session opens with initialize, no probe.
func TestInteropGoSDKHandshake(t *testing.T) {
	t.Parallel()
	argv := peertest.GoSDKEverything(t)
	p := runPeer(t, argv, "prompts")
	p.assertModernHandshake(t)
	if names := assertAllPages(t, p, "prompts/list", "prompts"); !slices.Contains(names, "greet") {
		t.Errorf("prompts %v", names)
	}

	// The tool's refusal is its result with isError: printed, exit 1.
	p = runPeer(t, argv, "call", "tools/call", callTool(t, "sample", nil))
	p.assertModernHandshake(t)
	p.mustExit(t, ExitRPCError)
	var res toolResult
	if err := json.Unmarshal([]byte(p.stdout), &res); err != nil {
		t.Fatalf("stdout is not the result: %v\n%s", err, p.stdout)
	}
	if !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "cannot be sent while serving a request on protocol version 2026-07-28") {
		t.Errorf("sample on 2026-07-28: %s", p.stdout)
	}
	if d := p.diag(); len(d) != 1 || !strings.HasPrefix(d[0], `error: tool "sample" failed (isError): `) {
		t.Errorf("stderr: %q", d)
	}
	if p.sent("sampling/createMessage") {
		t.Errorf("unexpected exchange: %q %s", p.diag(), p.wireDump())
	}

	p = runPeer(t, argv, "resources", legacy)
	p.assertLegacyHandshake(t, "2025-11-25", false)
	assertAllPages(t, p, "resources/list", "resources")
}

// TestInteropGoSDKPromptsResourcesCompletion gets a prompt, reads the
// resource resources/list names, asks a completion (the server documents
// that it appends "x" to the value) and calls the structured greet.
func TestInteropGoSDKPromptsResourcesCompletion(t *testing.T) {
	t.Parallel()
	argv := peertest.GoSDKEverything(t)
	var prompt struct {
		Messages []struct {
			Role    string
			Content struct{ Text string }
		}
	}
	decodeStdout(t, runPeer(t, argv, "call", "prompts/get", `{"name":"greet","arguments":{"name":"Ada"}}`).result, &prompt)
	if len(prompt.Messages) != 1 || prompt.Messages[0].Content.Text != "Say hi to Ada" {
		t.Errorf("prompts/get greet: %+v", prompt)
	}

	var listing struct {
		Resources []struct{ URI, MimeType string } `json:"resources"`
	}
	decodeStdout(t, runPeer(t, argv, "resources").result, &listing)
	if len(listing.Resources) == 0 {
		t.Fatalf("no resources")
	}
	r := listing.Resources[0]
	if c := readResource(t, argv, r.URI); c.MimeType != r.MimeType || c.Text == "" {
		t.Errorf("resources/read %s: %+v", r.URI, c)
	}

	var done struct {
		Completion struct{ Values []string } `json:"completion"`
	}
	decodeStdout(t, runPeer(t, argv, "call", "completion/complete",
		`{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"Ad"}}`).result, &done)
	if !slices.Equal(done.Completion.Values, []string{"Adx"}) {
		t.Errorf("completion/complete: %v", done.Completion.Values)
	}

	var structured struct {
		StructuredContent struct{ Message string } `json:"structuredContent"`
	}
	decodeStdout(t, runPeer(t, argv, "call", "tools/call", callTool(t, "greet (structured)", map[string]any{"name": "Ada"})).result, &structured)
	if structured.StructuredContent.Message != "Hi Ada" {
		t.Errorf("greet (structured): %+v", structured)
	}
}

// TestInteropGoSDKElicitation answers a URL-mode elicitation (accepted,
// no content goes back), and declines the form of elicit (form): the
// server then reads a missing key, panics and exits mid-request, which
// mcpscope reports as a lost connection with the exit status and the
// server's last stderr line.
func TestInteropGoSDKElicitation(t *testing.T) {
	t.Parallel()
	argv := peertest.GoSDKEverything(t)
	answers := writeAnswers(t, "elicitation:\n  - action: accept\n")
	p := runPeer(t, argv, "call", legacy, "--answers", answers, "tools/call", callTool(t, "elicit (url)", nil))
	if got := toolText(t, p.result); got != "(elicitation pending)" {
		t.Errorf("elicit (url): %q", got)
	}
	q := serverRequest(t, p, "elicitation/create")
	var ask struct{ Mode, URL string }
	if json.Unmarshal(q.Params, &ask) != nil || ask.Mode != "url" || ask.URL == "" {
		t.Errorf("elicitation/create: %s", q.Raw)
	}
	if a := answerTo(t, p, q); string(a.Result) != `{"action":"accept"}` {
		t.Errorf("URL elicitation answered %s", a.Raw)
	}

	declined := writeAnswers(t, "elicitation:\n  - action: decline\n")
	p = runPeer(t, argv, "call", legacy, "--answers", declined, "tools/call", callTool(t, "elicit (form)", nil))
	p.mustExit(t, ExitConnection)
	d := p.diag()
	if len(d) != 1 || !strings.HasPrefix(d[0], "error: connection lost: server exited with status 2 while the session was open; last stderr: ") {
		t.Fatalf("stderr %q", d)
	}
	if len(p.serverStderr) == 0 {
		t.Fatalf("the server wrote nothing to stderr")
	}
	last := p.serverStderr[len(p.serverStderr)-1]
	if !strings.HasSuffix(d[0], strconv.Quote(last)) || !slices.ContainsFunc(p.serverStderr, func(l string) bool { return strings.HasPrefix(l, "panic: ") }) {
		t.Errorf("the error does not end with the server's last stderr line %q:\n%s", last, d[0])
	}
	if a := answerTo(t, p, serverRequest(t, p, "elicitation/create")); string(a.Result) != `{"action":"decline"}` || p.stdout != "" {
		t.Errorf("declined with %s; stdout %q", a.Raw, p.stdout)
	}
}

// TestInteropGoSDKRootsFromFile: the roots of the answers file come first,
// then those of --root, and the server's roots tool lists them all.
func TestInteropGoSDKRootsFromFile(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, "roots:\n  - {uri: \"file:///srv/project\", name: project}\n")
	p := runPeer(t, peertest.GoSDKEverything(t), "call", legacy, "--answers", answers, "--root", "file:///srv/data", "tools/call", callTool(t, "roots", nil))
	if got := toolText(t, p.result); got != "project:file:///srv/project,data:file:///srv/data" {
		t.Errorf("roots: %q", got)
	}
}
