package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Interoperability with the TypeScript reference server
// (@modelcontextprotocol/server-everything, stdio). It speaks 2024-11-05 …
// 2025-11-25 only, so every session must fall back from server/discover to
// initialize. cli/e2e_test.go already shows its progress lines
// (TestE2EProgressTypeScript); these tests cover the rest of the matrix.
//
// Not covered here, because the server has no such feature: MRTR rounds
// (it refuses 2026-07-28 altogether, see TestInteropTSHandshake).

func tsServer(t *testing.T) []string { return peertest.TSEverything(t, "stdio") }

// tsStdio runs mcpscope against the server on stdio, through the wiretap.
func tsStdio(t *testing.T) peerRunner {
	argv := tsServer(t)
	return func(t *testing.T, args ...string) peerRun {
		t.Helper()
		return runPeer(t, argv, args...)
	}
}

// TestInteropTSHandshake: the server answers server/discover with -32601,
// mcpscope falls back to initialize offering 2025-11-25 and sends
// notifications/initialized before anything else; tools lists every page,
// including the tools the server registers only for the capabilities
// mcpscope declared.
func TestInteropTSHandshake(t *testing.T) {
	t.Parallel()
	p := runPeer(t, tsServer(t), "tools")
	p.assertLegacyHandshake(t, "2025-11-25", true)
	probe := p.requests("server/discover")[0].ID
	if res := p.responseTo(t, probe); res.Error.Code != -32601 {
		t.Errorf("server/discover answered %s, want -32601", res.Raw)
	}
	if !regexpMatch(`(?m)^\S+ ← control \d+B error id=`+string(probe)+` -32601 Method not found$`, p.stderr) {
		t.Errorf("--trace does not show the refusal:\n%s", p.stderr)
	}
	names := assertAllPages(t, p, "tools/list", "tools")
	for _, want := range []string{"echo", "get-sum", "trigger-long-running-operation", "trigger-elicitation-request", "trigger-sampling-request"} {
		if !slices.Contains(names, want) {
			t.Errorf("tool %q missing from %v", want, names)
		}
	}
	if slices.Contains(names, "get-roots-list") {
		t.Errorf("get-roots-list is listed although no roots were declared")
	}

	// Forcing the modern era against a legacy-only server is a protocol error.
	p = runPeer(t, tsServer(t), "tools", "--protocol", "2026-07-28")
	p.mustExit(t, ExitProtocol)
	if d := p.diag(); len(d) != 1 || !strings.Contains(d[0], "protocol violation: server/discover failed, so the server does not speak 2026-07-28") ||
		!strings.HasSuffix(d[0], "Method not found (code -32601)") {
		t.Errorf("stderr %q", p.diag())
	}
	if p.sent("initialize") || p.sent("tools/list") {
		t.Errorf("mcpscope went on after the refusal: %s", p.wireDump())
	}
}

// TestInteropTSToolsCall calls echo (with non-ASCII text) and get-sum.
func TestInteropTSToolsCall(t *testing.T) {
	t.Parallel()
	argv := tsServer(t)
	msg := "héllo, wörld ✓"
	if got := toolText(t, runPeer(t, argv, "call", "tools/call", callTool(t, "echo", map[string]any{"message": msg})).result); got != "Echo: "+msg {
		t.Errorf("echo: %q", got)
	}
	if got := toolText(t, runPeer(t, argv, "call", "tools/call", callTool(t, "get-sum", map[string]any{"a": 2.5, "b": 4})).result); got != "The sum of 2.5 and 4 is 6.5." {
		t.Errorf("get-sum: %q", got)
	}
}

// TestInteropTSPromptsResourcesCompletion chains the server's answers: the
// completions of completable-prompt's arguments fill prompts/get; a static
// resource from resources/list is read and compared with the document it
// exposes; a resource template is expanded with a completed value and read.
func TestInteropTSPromptsResourcesCompletion(t *testing.T) {
	t.Parallel()
	argv := tsServer(t)
	prompt := map[string]any{"type": "ref/prompt", "name": "completable-prompt"}
	dept := complete(t, argv, prompt, "department", "S", nil)[0]
	lead := complete(t, argv, prompt, "name", "", map[string]string{"department": dept})[0]
	var got struct {
		Messages []struct {
			Content struct{ Text string } `json:"content"`
		} `json:"messages"`
	}
	decodeStdout(t, runPeer(t, argv, "call", "prompts/get", jsonArg(t, map[string]any{
		"name": "completable-prompt", "arguments": map[string]string{"department": dept, "name": lead},
	})).result, &got)
	if len(got.Messages) != 1 || got.Messages[0].Content.Text != "Please promote "+lead+" to the head of the "+dept+" team." {
		t.Errorf("prompts/get: %+v", got)
	}

	var listing struct {
		Resources []struct{ URI, Name, MimeType string } `json:"resources"`
		Templates []struct{ URITemplate string }         `json:"resourceTemplates"`
	}
	decodeStdout(t, runPeer(t, argv, "resources").result, &listing)
	if len(listing.Resources) == 0 || len(listing.Templates) == 0 {
		t.Fatalf("resources listing: %+v", listing)
	}
	doc := listing.Resources[0]
	want, err := os.ReadFile(filepath.Join(filepath.Dir(argv[1]), "docs", doc.Name))
	if err != nil {
		t.Fatalf("the document behind %s: %v", doc.URI, err)
	}
	if c := readResource(t, argv, doc.URI); c.MimeType != doc.MimeType || c.Text != string(want) {
		t.Errorf("resources/read %s: %s %q…", doc.URI, c.MimeType, termtext.Ellipsis(c.Text, 60))
	}

	tmpl := listing.Templates[0].URITemplate
	id := complete(t, argv, map[string]any{"type": "ref/resource", "uri": tmpl}, "resourceId", "7", nil)[0]
	uri := strings.Replace(tmpl, "{resourceId}", id, 1)
	if text := readResource(t, argv, uri).text(t); !strings.HasPrefix(text, "Resource "+id+":") {
		t.Errorf("resources/read %s: %q", uri, text)
	}
}

// TestInteropTSProgress: with --progress the request carries
// _meta.progressToken, and every notifications/progress the server sends
// for it becomes one stderr line, in order, before the result.
func TestInteropTSProgress(t *testing.T) {
	t.Parallel()
	checkTSProgress(t, tsStdio(t))
}

// checkTSProgress is TestInteropTSProgress over the transport of run.
func checkTSProgress(t *testing.T, run peerRunner) {
	p := run(t, "call", "--progress", "tools/call",
		callTool(t, "trigger-long-running-operation", map[string]any{"duration": 2, "steps": 4}))
	if got := toolText(t, p.result); got != "Long running operation completed. Duration: 2 seconds, Steps: 4." {
		t.Errorf("result %q", got)
	}
	want := progressLines(t, p, p.requests("tools/call")[0])
	if !slices.Equal(p.diag(), want) || !slices.Equal(want, []string{"progress 1/4", "progress 2/4", "progress 3/4", "progress 4/4"}) {
		t.Errorf("stderr shows %q, the server sent %q", p.diag(), want)
	}
}

// TestInteropTSTimeoutCancels: a call that outlives --timeout exits 4, says
// so, and tells the server with notifications/cancelled naming the id of
// the request that timed out. The server goes on sending progress after
// the cancellation; the run still ends cleanly. (2 s rather than 1 s: Node
// may take a second to start on a busy machine, and the handshake runs
// under the same limit; the first progress comes after 5 s.)
func TestInteropTSTimeoutCancels(t *testing.T) {
	t.Parallel()
	checkTSTimeoutCancels(t, tsStdio(t))
}

// checkTSTimeoutCancels is TestInteropTSTimeoutCancels over the transport
// of run.
// The limit (4 s) stays under the tool's first progress (5 s) and leaves a
// slow node start room for the handshake, which the limit bounds too.
func checkTSTimeoutCancels(t *testing.T, run peerRunner) {
	p := run(t, "call", "--timeout", "4s", "--progress", "tools/call",
		callTool(t, "trigger-long-running-operation", map[string]any{"duration": 10, "steps": 2}))
	p.mustExit(t, ExitTimeout)
	calls := p.requests("tools/call")
	if len(calls) != 1 {
		t.Fatalf("tools/call sent %d times: %s", len(calls), p.wireDump())
	}
	id := string(calls[0].ID)
	if d := p.diag(); len(d) != 1 || d[0] != "error: tools/call (id "+id+") timed out after 4s; sent a cancellation" {
		t.Errorf("stderr %q", d)
	}
	assertCancelled(t, p, calls[0], "timed out after 4s")
	if p.stdout != "" {
		t.Errorf("stdout %q", p.stdout)
	}
}

// TestInteropTSElicitation answers the form of trigger-elicitation-request
// (every field kind) from a YAML answers file giving some fields: the
// server must receive those, plus the schema's default for every field the
// file left out, and nothing for fields without a default. A JSON answers
// file declining comes second.
func TestInteropTSElicitation(t *testing.T) {
	t.Parallel()
	checkTSElicitation(t, tsStdio(t))
}

// checkTSElicitation is TestInteropTSElicitation over the transport of run.
func checkTSElicitation(t *testing.T, run peerRunner) {
	given := map[string]any{
		"name": "Ada Lovelace", "check": true, "email": "ada@example.com", "birthdate": "1815-12-10",
		"integer": 7, "untitledMultipleSelectEnum": []any{"Piano", "Drums"}, "legacyTitledEnum": "pet-3",
	}
	answers := writeAnswers(t, "elicitation:\n  - action: accept\n    content:\n"+
		"      name: Ada Lovelace\n      check: true\n      email: ada@example.com\n      birthdate: \"1815-12-10\"\n"+
		"      integer: 7\n      untitledMultipleSelectEnum: [Piano, Drums]\n      legacyTitledEnum: pet-3\n")
	p := run(t, "call", "--answers", answers, "tools/call", callTool(t, "trigger-elicitation-request", nil))
	text := toolText(t, p.result)
	for _, line := range []string{"- Name: Ada Lovelace", "- Agreed to terms: true", "- Email: ada@example.com", "- Birthdate: 1815-12-10", "- Favorite Integer: 7"} {
		if !strings.Contains(text, line) {
			t.Errorf("the server did not receive %q:\n%s", line, text)
		}
	}
	_, raw, ok := strings.Cut(text, "Raw result: ")
	var received struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if !ok || json.Unmarshal([]byte(raw), &received) != nil || received.Action != "accept" {
		t.Fatalf("no raw result in %q", text)
	}

	// What the server should have received follows from the schema it sent.
	question := serverRequest(t, p, "elicitation/create")
	var schema struct {
		RequestedSchema struct {
			Properties map[string]struct {
				Default any `json:"default"`
			} `json:"properties"`
		} `json:"requestedSchema"`
	}
	if json.Unmarshal(question.Params, &schema) != nil || len(schema.RequestedSchema.Properties) < 10 {
		t.Fatalf("elicitation/create: %s", question.Raw)
	}
	want := map[string]any{}
	for field, prop := range schema.RequestedSchema.Properties {
		if v, ok := given[field]; ok {
			want[field] = v
		} else if prop.Default != nil {
			want[field] = prop.Default
		}
	}
	if len(want) == len(given) {
		t.Fatalf("the schema has no default the file left out: %s", question.Raw)
	}
	if jsonArg(t, received.Content) != jsonArg(t, want) {
		t.Errorf("the server received %v\nwant the fields given and the other defaults: %v", received.Content, want)
	}

	declined := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(declined, []byte(`{"elicitation":[{"action":"decline"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p = run(t, "call", "--answers", declined, "tools/call", callTool(t, "trigger-elicitation-request", nil))
	if text := toolText(t, p.result); !strings.Contains(text, "User declined to provide the requested information.") {
		t.Errorf("decline: %q", text)
	}
	if answer := answerTo(t, p, serverRequest(t, p, "elicitation/create")); string(answer.Result) != `{"action":"decline"}` {
		t.Errorf("the decline went out as %s", answer.Raw)
	}
}

// TestInteropTSSampling answers sampling/createMessage from the answers file.
func TestInteropTSSampling(t *testing.T) {
	t.Parallel()
	checkTSSampling(t, tsStdio(t))
}

// checkTSSampling is TestInteropTSSampling over the transport of run.
func checkTSSampling(t *testing.T, run peerRunner) {
	answers := writeAnswers(t, "sampling:\n  - text: Paris is the capital.\n    model: scripted-model\n")
	p := run(t, "call", "--answers", answers, "tools/call",
		callTool(t, "trigger-sampling-request", map[string]any{"prompt": "What is the capital of France?"}))
	text := toolText(t, p.result)
	_, raw, _ := strings.Cut(text, "LLM sampling result: ")
	var got struct {
		Model   string `json:"model"`
		Role    string `json:"role"`
		Content struct{ Type, Text string }
	}
	if json.Unmarshal([]byte(raw), &got) != nil || got.Model != "scripted-model" || got.Role != "assistant" || got.Content.Text != "Paris is the capital." {
		t.Errorf("result %q", text)
	}
	if q := serverRequest(t, p, "sampling/createMessage"); !strings.Contains(string(q.Params), "What is the capital of France?") {
		t.Errorf("the server asked %s", q.Raw)
	}
}

// TestInteropTSRoots: --root declares the roots capability, which makes
// the server register get-roots-list and ask roots/list by itself right
// after the handshake; both the tool and that request get the roots given.
func TestInteropTSRoots(t *testing.T) {
	t.Parallel()
	checkTSRoots(t, tsStdio(t))
}

// checkTSRoots is TestInteropTSRoots over the transport of run.
func checkTSRoots(t *testing.T, run peerRunner) {
	dir := t.TempDir()
	p := run(t, "call", "--root", dir, "--root", "file:///srv/data", "tools/call", callTool(t, "get-roots-list", nil))
	text := toolText(t, p.result)
	dirURI := "file://" + filepath.ToSlash(dir)
	if !strings.Contains(text, "(2 total)") || !strings.Contains(text, "URI: "+dirURI+"\n") || !strings.Contains(text, "URI: file:///srv/data\n") {
		t.Errorf("get-roots-list: %q", text)
	}
	var init struct {
		Capabilities struct {
			Roots *struct {
				ListChanged bool `json:"listChanged"`
			} `json:"roots"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(p.requests("initialize")[0].Params, &init) != nil || init.Capabilities.Roots == nil || !init.Capabilities.Roots.ListChanged {
		t.Errorf("initialize does not declare roots: %s", p.requests("initialize")[0].Raw)
	}
	asked := 0
	for _, m := range p.wire {
		if !m.Out && m.isRequest() && m.Method == "roots/list" {
			asked++
			var res struct{ Roots []struct{ URI string } }
			if a := answerTo(t, p, m); json.Unmarshal(a.Result, &res) != nil || len(res.Roots) != 2 || res.Roots[0].URI != dirURI || res.Roots[1].URI != "file:///srv/data" {
				t.Errorf("roots/list answered %s", a.Raw)
			}
		}
	}
	if asked == 0 {
		t.Errorf("the server never asked roots/list: %s", p.wireDump())
	}
}
