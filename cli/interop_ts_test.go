package cli

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/peertest"
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

// TestInteropTSHandshake: the server answers server/discover with -32601,
// mcpscope falls back to initialize offering 2025-11-25 and sends
// notifications/initialized before anything else; tools lists every page,
// including the tools the server registers only for the capabilities
// mcpscope declared.
func TestInteropTSHandshake(t *testing.T) {
	t.Parallel()
	p := runPeer(t, tsServer(t), "tools")
	p.assertLegacyHandshake(t, "2025-11-25", true)
	if res := p.responseTo(t, p.requests("server/discover")[0].ID); res.Error.Code != -32601 {
		t.Errorf("server/discover answered %s, want -32601", res.Raw)
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

// assertAllPages checks that the listing on stdout holds exactly the items
// of every page of method on the wire, in order, that each page after the
// first asked for the previous page's nextCursor, and returns their names.
func assertAllPages(t *testing.T, p peerRun, method, field string) []string {
	t.Helper()
	var onWire []string
	cursor := ""
	for i, req := range p.requests(method) {
		var asked struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &asked)
		if asked.Cursor != cursor {
			t.Errorf("%s page %d asked for cursor %q, want %q", method, i+1, asked.Cursor, cursor)
		}
		var page map[string]json.RawMessage
		var items []struct{ Name string }
		res := p.responseTo(t, req.ID)
		if json.Unmarshal(res.Result, &page) != nil || json.Unmarshal(page[field], &items) != nil {
			t.Fatalf("%s page %d: %s", method, i+1, res.Raw)
		}
		for _, it := range items {
			onWire = append(onWire, it.Name)
		}
		cursor = ""
		_ = json.Unmarshal(page["nextCursor"], &cursor)
	}
	if cursor != "" {
		t.Errorf("%s stopped before the last page (nextCursor %q)", method, cursor)
	}
	var doc map[string][]struct{ Name string }
	decodeStdout(t, p.result, &doc)
	var listed []string
	for _, it := range doc[field] {
		listed = append(listed, it.Name)
	}
	if len(listed) == 0 || !slices.Equal(listed, onWire) {
		t.Errorf("stdout lists %v, the pages on the wire held %v", listed, onWire)
	}
	return listed
}

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
	complete := func(ref map[string]any, arg, value string, context map[string]string) []string {
		t.Helper()
		req := map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": value}}
		if context != nil {
			req["context"] = map[string]any{"arguments": context}
		}
		var res struct {
			Completion struct{ Values []string } `json:"completion"`
		}
		decodeStdout(t, runPeer(t, argv, "call", "completion/complete", jsonArg(t, req)).result, &res)
		for _, v := range res.Completion.Values {
			if !strings.HasPrefix(v, value) {
				t.Errorf("completion of %s=%q offers %q", arg, value, v)
			}
		}
		if len(res.Completion.Values) == 0 {
			t.Fatalf("no completion for %s=%q", arg, value)
		}
		return res.Completion.Values
	}
	prompt := map[string]any{"type": "ref/prompt", "name": "completable-prompt"}
	dept := complete(prompt, "department", "S", nil)[0]
	lead := complete(prompt, "name", "", map[string]string{"department": dept})[0]
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
		t.Errorf("resources/read %s: %s %q…", doc.URI, c.MimeType, shorten(c.Text, 60))
	}

	tmpl := listing.Templates[0].URITemplate
	id := complete(map[string]any{"type": "ref/resource", "uri": tmpl}, "resourceId", "7", nil)[0]
	uri := strings.Replace(tmpl, "{resourceId}", id, 1)
	if text := readResource(t, argv, uri).text(t); !strings.HasPrefix(text, "Resource "+id+":") {
		t.Errorf("resources/read %s: %q", uri, text)
	}
}

// resourceContents is one item of a resources/read result.
type resourceContents struct {
	URI, MimeType, Text string
	Blob                string
}

// text returns the text of the contents, decoding a blob.
func (c resourceContents) text(t *testing.T) string {
	t.Helper()
	if c.Blob == "" {
		return c.Text
	}
	b, err := base64.StdEncoding.DecodeString(c.Blob)
	if err != nil {
		t.Fatalf("the blob of %s is not base64: %v", c.URI, err)
	}
	return string(b)
}

// readResource reads uri and returns its only contents, checking it names uri.
func readResource(t *testing.T, argv []string, uri string) resourceContents {
	t.Helper()
	var res struct{ Contents []resourceContents }
	decodeStdout(t, runPeer(t, argv, "call", "resources/read", jsonArg(t, map[string]string{"uri": uri})).result, &res)
	if len(res.Contents) != 1 || res.Contents[0].URI != uri || res.Contents[0].Text+res.Contents[0].Blob == "" {
		t.Fatalf("resources/read %s: %+v", uri, res)
	}
	return res.Contents[0]
}

// TestInteropTSProgress: with --progress the request carries
// _meta.progressToken, and every notifications/progress the server sends
// for it becomes one stderr line, in order, before the result.
func TestInteropTSProgress(t *testing.T) {
	t.Parallel()
	p := runPeer(t, tsServer(t), "call", "--progress", "tools/call",
		callTool(t, "trigger-long-running-operation", map[string]any{"duration": 2, "steps": 4}))
	if got := toolText(t, p.result); got != "Long running operation completed. Duration: 2 seconds, Steps: 4." {
		t.Errorf("result %q", got)
	}
	call := p.requests("tools/call")[0]
	var want []string
	for _, m := range p.wire {
		if m.Method != "notifications/progress" {
			continue
		}
		var n struct {
			ProgressToken json.RawMessage `json:"progressToken"`
			Progress      float64         `json:"progress"`
			Total         float64         `json:"total"`
		}
		if json.Unmarshal(m.Params, &n) != nil || string(n.ProgressToken) != string(call.ID) {
			t.Errorf("progress for another token: %s (request id %s)", m.Raw, call.ID)
		}
		want = append(want, "progress "+jsonArg(t, n.Progress)+"/"+jsonArg(t, n.Total))
	}
	if !slices.Equal(p.diag(), want) || !slices.Equal(want, []string{"progress 1/4", "progress 2/4", "progress 3/4", "progress 4/4"}) {
		t.Errorf("stderr shows %q, the server sent %q", p.diag(), want)
	}
}

// TestInteropTSTimeoutCancels: a call that outlives --timeout exits 4, says
// so, and tells the server with notifications/cancelled naming the id of
// the request that timed out. The server goes on sending progress after
// the cancellation; the run still ends cleanly.
func TestInteropTSTimeoutCancels(t *testing.T) {
	t.Parallel()
	p := runPeer(t, tsServer(t), "call", "--timeout", "1s", "--progress", "tools/call",
		callTool(t, "trigger-long-running-operation", map[string]any{"duration": 10, "steps": 2}))
	p.mustExit(t, ExitTimeout)
	calls := p.requests("tools/call")
	if len(calls) != 1 {
		t.Fatalf("tools/call sent %d times: %s", len(calls), p.wireDump())
	}
	id := string(calls[0].ID)
	if d := p.diag(); len(d) != 1 || d[0] != "error: tools/call (id "+id+") timed out after 1s; sent a cancellation" {
		t.Errorf("stderr %q", d)
	}
	assertCancelled(t, p, calls[0], "timed out after 1s")
	if p.stdout != "" {
		t.Errorf("stdout %q", p.stdout)
	}
}

// assertCancelled checks that exactly one notifications/cancelled names
// req, after it on the wire, with reason, and that --trace showed it. A
// short --timeout may also have cancelled the server/discover probe of a
// slow-starting server (the engine then falls back to initialize); any
// other cancellation is an error.
func assertCancelled(t *testing.T, p peerRun, req wireMsg, reason string) {
	t.Helper()
	probes := map[string]bool{}
	for _, d := range p.requests("server/discover") {
		probes[string(d.ID)] = true
	}
	found, after := 0, false
	for _, m := range p.wire {
		after = after || (m.Out && string(m.ID) == string(req.ID) && m.Method == req.Method)
		if !m.Out || m.Method != "notifications/cancelled" {
			continue
		}
		var n struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}
		switch {
		case json.Unmarshal(m.Params, &n) != nil:
			t.Errorf("malformed cancellation %s", m.Raw)
		case string(n.RequestID) == string(req.ID):
			found++
			if !after || n.Reason != reason {
				t.Errorf("cancellation %s: before its request, or not for %q", m.Raw, reason)
			}
		case probes[string(n.RequestID)]:
			t.Logf("the server/discover probe timed out too: %s", m.Raw)
		default:
			t.Errorf("cancellation of a request nobody gave up on: %s", m.Raw)
		}
	}
	if found != 1 {
		t.Fatalf("%d notifications/cancelled name request %s: %s", found, req.ID, p.wireDump())
	}
	if !regexpMatch(`(?m)^\S+ → control \d+B notification notifications/cancelled$`, p.stderr) {
		t.Errorf("--trace does not show the cancellation:\n%s", p.stderr)
	}
}

// TestInteropTSElicitation answers the form of trigger-elicitation-request
// (every field kind) from a YAML answers file giving some fields: the
// server must receive those, plus the schema's default for every field the
// file left out, and nothing for fields without a default. A JSON answers
// file declining comes second.
func TestInteropTSElicitation(t *testing.T) {
	t.Parallel()
	argv := tsServer(t)
	given := map[string]any{
		"name": "Ada Lovelace", "check": true, "email": "ada@example.com", "birthdate": "1815-12-10",
		"integer": 7, "untitledMultipleSelectEnum": []any{"Piano", "Drums"}, "legacyTitledEnum": "pet-3",
	}
	answers := writeAnswers(t, "elicitation:\n  - action: accept\n    content:\n"+
		"      name: Ada Lovelace\n      check: true\n      email: ada@example.com\n      birthdate: \"1815-12-10\"\n"+
		"      integer: 7\n      untitledMultipleSelectEnum: [Piano, Drums]\n      legacyTitledEnum: pet-3\n")
	p := runPeer(t, argv, "call", "--answers", answers, "tools/call", callTool(t, "trigger-elicitation-request", nil))
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
	p = runPeer(t, argv, "call", "--answers", declined, "tools/call", callTool(t, "trigger-elicitation-request", nil))
	if text := toolText(t, p.result); !strings.Contains(text, "User declined to provide the requested information.") {
		t.Errorf("decline: %q", text)
	}
	if answer := answerTo(t, p, serverRequest(t, p, "elicitation/create")); string(answer.Result) != `{"action":"decline"}` {
		t.Errorf("the decline went out as %s", answer.Raw)
	}
}

// serverRequest returns the only request of method the server sent.
func serverRequest(t *testing.T, p peerRun, method string) wireMsg {
	t.Helper()
	var found []wireMsg
	for _, m := range p.wire {
		if !m.Out && m.isRequest() && m.Method == method {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the server sent %s %d times: %s", method, len(found), p.wireDump())
	}
	return found[0]
}

// answerTo returns mcpscope's answer to a request from the server.
func answerTo(t *testing.T, p peerRun, req wireMsg) wireMsg {
	t.Helper()
	for _, m := range p.wire {
		if m.Out && m.Method == "" && string(m.ID) == string(req.ID) {
			return m
		}
	}
	t.Fatalf("mcpscope never answered %s", req.Raw)
	return wireMsg{}
}

// TestInteropTSSampling answers sampling/createMessage from the answers file.
func TestInteropTSSampling(t *testing.T) {
	t.Parallel()
	answers := writeAnswers(t, "sampling:\n  - text: Paris is the capital.\n    model: scripted-model\n")
	p := runPeer(t, tsServer(t), "call", "--answers", answers, "tools/call",
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
	dir := t.TempDir()
	p := runPeer(t, tsServer(t), "call", "--root", dir, "--root", "file:///srv/data", "tools/call", callTool(t, "get-roots-list", nil))
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
