package cli

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// Interoperability with the Go SDK conformance everything-server on stdio
// (run with no flags): a 2026-07-28 server with MRTR tools, and the legacy
// era on request.
//
// Already in cli/e2e_test.go and not repeated: the MRTR elicitation's
// result and the SEP-1034 defaults all taken (TestE2EConformanceAnswers).
//
// Not covered, because the server cannot: a timeout on a long call (its
// slowest tool, test_tool_with_progress, ends in 150 ms); roots outside
// MRTR (no legacy tool asks roots/list); test_elicitation_sep1330_enums
// (the server rejects its own schema before asking: "elicit schema
// property "titledMulti" items must specify enum for untitled enums").

func conformanceServer(t *testing.T) []string { return []string{peertest.GoSDKConformance(t)} }

// TestInteropConformanceHandshake: modern by default (no initialize on the
// wire), legacy without a probe when --protocol names 2025-11-25; tools
// lists every page either way.
func TestInteropConformanceHandshake(t *testing.T) {
	t.Parallel()
	argv := conformanceServer(t)
	p := runPeer(t, argv, "tools")
	p.assertModernHandshake(t)
	names := assertAllPages(t, p, "tools/list", "tools")
	if !slices.Contains(names, "test_simple_text") || !slices.Contains(names, "test_input_required_result_elicitation") {
		t.Errorf("tools %v", names)
	}
	p = runPeer(t, argv, "tools", legacy)
	p.assertLegacyHandshake(t, "2025-11-25", false)
	if legacyNames := assertAllPages(t, p, "tools/list", "tools"); !slices.Equal(legacyNames, names) {
		t.Errorf("the legacy era lists %v, the modern one %v", legacyNames, names)
	}
}

// TestInteropConformanceBasics calls a tool, gets a prompt with arguments,
// reads a static resource and a template from resources/list, and asks a
// completion (the server documents an empty answer).
func TestInteropConformanceBasics(t *testing.T) {
	t.Parallel()
	argv := conformanceServer(t)
	if got := toolText(t, runPeer(t, argv, "call", "tools/call", callTool(t, "test_simple_text", nil)).result); got == "" {
		t.Errorf("test_simple_text gave no text")
	}
	var prompt struct {
		Messages []struct{ Content struct{ Text string } }
	}
	decodeStdout(t, runPeer(t, argv, "call", "prompts/get", `{"name":"test_prompt_with_arguments","arguments":{"arg1":"alpha","arg2":"beta"}}`).result, &prompt)
	if len(prompt.Messages) != 1 || !strings.Contains(prompt.Messages[0].Content.Text, "alpha") || !strings.Contains(prompt.Messages[0].Content.Text, "beta") {
		t.Errorf("prompts/get: %+v", prompt)
	}

	var listing struct {
		Resources []struct{ URI, MimeType string }         `json:"resources"`
		Templates []struct{ URITemplate, MimeType string } `json:"resourceTemplates"`
	}
	decodeStdout(t, runPeer(t, argv, "resources").result, &listing)
	if len(listing.Resources) == 0 || len(listing.Templates) != 1 || !strings.Contains(listing.Templates[0].URITemplate, "{id}") {
		t.Fatalf("resources: %+v", listing)
	}
	for _, r := range listing.Resources[:min(2, len(listing.Resources))] {
		if c := readResource(t, argv, r.URI); c.MimeType != r.MimeType {
			t.Errorf("resources/read %s: %+v", r.URI, c)
		}
	}
	uri := strings.Replace(listing.Templates[0].URITemplate, "{id}", "42", 1)
	if text := readResource(t, argv, uri).text(t); !strings.Contains(text, `"id": "42"`) {
		t.Errorf("resources/read %s: %q", uri, text)
	}

	var done struct {
		Completion *struct{ Values []string } `json:"completion"`
	}
	decodeStdout(t, runPeer(t, argv, "call", "completion/complete",
		`{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"a"}}`).result, &done)
	if done.Completion == nil || done.Completion.Values == nil {
		t.Errorf("completion/complete: %+v", done.Completion)
	}
}

// TestInteropConformanceProgress: the server reports progress 0, 50, 100
// for the token mcpscope sent, and answers with the token it saw, which is
// the request's id.
func TestInteropConformanceProgress(t *testing.T) {
	t.Parallel()
	assertConformanceProgress(t, runPeer(t, conformanceServer(t), "call", "--progress", "tools/call", callTool(t, "test_tool_with_progress", nil)))
}

// assertConformanceProgress checks a run of test_tool_with_progress with
// --progress: the server reports progress 0, 50, 100 for the token
// mcpscope sent, each a stderr line, and answers with the token it saw,
// which is the request's id.
func assertConformanceProgress(t *testing.T, p peerRun) {
	t.Helper()
	call := p.requests("tools/call")[0]
	if got := toolText(t, p.result); got != string(call.ID) {
		t.Errorf("the server saw progress token %q, the request id is %s", got, call.ID)
	}
	want := progressLines(t, p, call)
	if len(want) != 3 || !slices.Equal(p.diag(), want) {
		t.Errorf("stderr shows %q, the server sent %q", p.diag(), want)
	}
}

// toolQuestion is a tool that asks the client: its arguments, the answers
// file that answers it and the text of its result.
type toolQuestion struct{ tool, args, answers, want string }

// conformanceQuestions are the conformance server's legacy-era tools that
// ask the client.
var conformanceQuestions = []toolQuestion{
	{"test_elicitation", `{"message":"Who are you?"}`, "elicitation:\n  - content: {username: ada}\n",
		"Elicitation result: action=accept, content=map[username:ada]"},
	{"test_elicitation_sep1034_defaults", `{}`, "elicitation:\n  - content: {name: Ada, age: 36}\n",
		"Elicitation result: action=accept, content=map[age:36 name:Ada score:95.5 status:active verified:true]"},
	{"test_sampling", `{"prompt":"What is the capital of France?"}`, "sampling:\n  - text: Paris\n",
		"LLM response: Paris"},
}

// TestInteropConformanceLegacyQuestions answers the server's legacy-era
// elicitation and sampling requests from the answers file; the SEP-1034
// defaults fill only what the file leaves out.
func TestInteropConformanceLegacyQuestions(t *testing.T) {
	t.Parallel()
	argv := conformanceServer(t)
	for _, c := range conformanceQuestions {
		p := runPeer(t, argv, "call", legacy, "--answers", writeAnswers(t, c.answers), "tools/call",
			`{"name":"`+c.tool+`","arguments":`+c.args+`}`)
		p.assertLegacyHandshake(t, "2025-11-25", false)
		if got := toolText(t, p.result); got != c.want {
			t.Errorf("%s: %q, want %q", c.tool, got, c.want)
		}
	}
}

// TestInteropConformanceMRTR completes every tool (and the prompt) of the
// server that answers input_required, found by name in its listings, from
// an answers file and --root. Each retry must go out under a new id with
// inputResponses for exactly the keys asked and the server's requestState
// echoed unchanged (absent when the server gave none), and --trace must
// show each round.
func TestInteropConformanceMRTR(t *testing.T) {
	t.Parallel()
	argv := conformanceServer(t)
	root := "file:///srv/conformance"
	cases := map[string]struct {
		answers, want string
		roots         bool
		firstAsk      []string // what the first round must ask for, when the point of the tool
	}{
		"test_input_required_result_elicitation": {answers: "elicitation:\n  - content: {name: Ada}\n", want: "Hello, Ada!"},
		"test_input_required_result_sampling":    {answers: "sampling:\n  - text: Paris\n", want: "Sampling response: Paris"},
		"test_input_required_result_list_roots":  {roots: true, want: "Client exposed 1 root(s): " + root},
		"test_input_required_result_request_state": {answers: "elicitation:\n  - content: {ok: true}\n",
			want: "state-ok: requestState received and confirmation accepted"},
		"test_input_required_result_multiple_inputs": {answers: "elicitation:\n  - content: {name: Ada}\nsampling:\n  - text: Hello\n",
			roots: true, want: "Hello Ada — 1 root(s) visible"},
		"test_input_required_result_multi_round": {answers: "elicitation:\n  - content: {name: Ada}\n  - content: {color: teal}\n",
			want: "Multi-round complete: Ada likes teal"},
		// Echoing the state unchanged is what passes the tamper check.
		"test_input_required_result_tampered_state": {answers: "elicitation:\n  - content: {ok: true}\n",
			want: "state-ok: requestState received and confirmation accepted"},
		// Without --root the server asks only for what mcpscope declared.
		"test_input_required_result_capabilities": {answers: "elicitation:\n  - content: {name: Ada}\nsampling:\n  - text: Hi\n",
			want: "Capability-aware input requests fulfilled", firstAsk: []string{"greeting", "user_name"}},
		"test_input_required_result_prompt": {answers: "elicitation:\n  - content: {context: billing}\n", want: "Context: billing"},
	}

	var tools, prompts map[string][]struct{ Name string }
	decodeStdout(t, mcpscope(t, withTarget(argv, "tools")...), &tools)
	decodeStdout(t, mcpscope(t, withTarget(argv, "prompts")...), &prompts)
	var names []string
	for _, it := range append(tools["tools"], prompts["prompts"]...) {
		if strings.HasPrefix(it.Name, "test_input_required_result_") {
			names = append(names, it.Name)
		}
	}
	if len(names) != len(cases) {
		t.Errorf("the server has the MRTR tools %v; the test knows %d", names, len(cases))
	}
	for _, name := range names {
		c, ok := cases[name]
		if !ok {
			t.Errorf("no case for %s", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			method, args := "tools/call", callTool(t, name, nil)
			if strings.HasSuffix(name, "_prompt") {
				method, args = "prompts/get", jsonArg(t, map[string]string{"name": name})
			}
			flags := []string{"call", "--answers", writeAnswers(t, c.answers+"\n")}
			if c.roots {
				flags = append(flags, "--root", root)
			}
			p := runPeer(t, argv, append(flags, method, args)...)
			p.assertModernHandshake(t)
			rounds, firstAsk := assertRounds(t, p, method)
			if c.firstAsk != nil && !slices.Equal(firstAsk, c.firstAsk) {
				t.Errorf("the first round asked for %v, want %v", firstAsk, c.firstAsk)
			}
			if rounds < 2 {
				t.Errorf("%d round(s): the server never asked for input", rounds)
			}
			if got := resultText(t, p.result); got != c.want {
				t.Errorf("result %q, want %q", got, c.want)
			}
		})
	}
}

// assertRounds checks the MRTR rounds of the only logical call of method
// in the run and returns how many there were and the input keys the first
// answer asked for.
func assertRounds(t *testing.T, p peerRun, method string) (rounds int, firstAsk []string) {
	t.Helper()
	used := map[string]bool{}
	for _, m := range p.wire {
		if m.Out && m.isRequest() && m.Method != method {
			used[string(m.ID)] = true
		}
	}
	reqs := p.requests(method)
	var asked struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  json.RawMessage            `json:"requestState"`
	}
	for i, req := range reqs {
		if used[string(req.ID)] {
			t.Errorf("round %d reuses id %s", i+1, req.ID)
		}
		used[string(req.ID)] = true
		if !regexpMatch(`(?m)^\S+ → control \d+B request `+regexp.QuoteMeta(method)+` id=`+regexp.QuoteMeta(string(req.ID))+`$`, p.stderr) {
			t.Errorf("--trace does not show round %d (id %s)", i+1, req.ID)
		}
		var sent struct {
			Name           string                     `json:"name"`
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
			RequestState   json.RawMessage            `json:"requestState"`
		}
		if err := json.Unmarshal(req.Params, &sent); err != nil {
			t.Fatalf("round %d params: %v", i+1, err)
		}
		if i > 0 {
			if !slices.Equal(sortedKeys(sent.InputResponses), sortedKeys(asked.InputRequests)) {
				t.Errorf("round %d answers %v, the server asked %v", i+1, sortedKeys(sent.InputResponses), sortedKeys(asked.InputRequests))
			}
			if string(sent.RequestState) != string(asked.RequestState) {
				t.Errorf("round %d echoes requestState %s, the server gave %s", i+1, sent.RequestState, asked.RequestState)
			}
		} else if sent.InputResponses != nil || sent.RequestState != nil {
			t.Errorf("the first round already carries input: %s", req.Raw)
		}
		asked.InputRequests, asked.RequestState, asked.ResultType = nil, nil, ""
		res := p.responseTo(t, req.ID)
		if err := json.Unmarshal(res.Result, &asked); err != nil {
			t.Fatalf("round %d result: %s", i+1, res.Raw)
		}
		if i == 0 {
			firstAsk = sortedKeys(asked.InputRequests)
		}
		last := i == len(reqs)-1
		if (asked.ResultType == "input_required") == last {
			t.Errorf("round %d of %d answered resultType %q", i+1, len(reqs), asked.ResultType)
		}
	}
	return len(reqs), firstAsk
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestInteropConformanceSlowStart: a modern server that takes longer to
// start than --timeout. The server/discover probe waits no longer than
// --timeout, so the handshake falls back to initialize, but the probe is
// not given up: when the server answers it first as a 2026-07-28 server
// and then refuses the "duplicate" initialize, the late answer wins and
// the run succeeds in the modern era; when the server takes initialize
// first and accepts it, the run goes on in that 2025-11-25 session. A
// server slower still times the run
// out (exit 4); it never fails with that confusing JSON-RPC error.
func TestInteropConformanceSlowStart(t *testing.T) {
	t.Parallel()
	// The server starts between the probe's 2 s and initialize's.
	p := runPeer(t, conformanceServer(t), "call", "--timeout", "2s", "--env", wiretapDelayEnv+"=2500ms",
		"tools/call", callTool(t, "test_simple_text", nil))
	switch p.code {
	case ExitTimeout:
	case ExitOK:
		calls := p.requests("tools/call")
		if len(calls) != 1 {
			t.Fatalf("tools/call sent %d times: %s", len(calls), p.wireDump())
		}
		// The server may take initialize before the probe it got first
		// and accept it: that session is a 2025-11-25 one, rightly kept.
		inits := p.requests("initialize")
		accepted := len(inits) == 1 && p.responseTo(t, inits[0].ID).Error == nil
		switch {
		case accepted:
			if metaVersion(calls[0]) != "" || !p.sent("notifications/initialized") {
				t.Errorf("initialize was accepted, but the session did not go on in its era: %s", p.wireDump())
			}
		case metaVersion(calls[0]) != "2026-07-28" || p.sent("notifications/initialized"):
			t.Errorf("the late server/discover answer did not win over the refused initialize: %s", p.wireDump())
		}
	default:
		t.Errorf("exit %d, want %d or %d; stderr %q\n%s", p.code, ExitOK, ExitTimeout, p.diag(), p.wireDump())
	}
}
