package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// `mcpscope script` against real third-party servers (through the wiretap
// of interop_helpers_test.go). None of them runs interactive sessions, so
// each tool step must ask `capabilities` once, take the refusal as "not
// interactive" and degrade to tools/call, answering the server's questions
// from the file.

// stdoutLines splits stdout into its lines, each of which must be JSON.
func stdoutLines(t *testing.T, r result) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Fatalf("stdout line %q is not JSON:\n%s", l, r.stdout)
		}
	}
	return lines
}

// assertDegraded checks the wire of a run against a server that is not
// interactive: one `capabilities` request, refused with -32601 before the
// first tools/call, and never an interaction.start.
func assertDegraded(t *testing.T, p peerRun) {
	t.Helper()
	asked := p.requests("capabilities")
	if len(asked) != 1 {
		t.Fatalf("capabilities asked %d times: %s", len(asked), p.wireDump())
	}
	if res := p.responseTo(t, asked[0].ID); res.Error == nil || res.Error.Code != -32601 {
		t.Errorf("capabilities answered %s, want -32601", res.Raw)
	}
	for _, m := range p.wire {
		if m.Out && m.Method == "tools/call" {
			break
		}
		if m.Out && m.isRequest() && m.Method != "capabilities" && m.Method != "server/discover" && m.Method != "initialize" {
			t.Errorf("%s went out before the discovery: %s", m.Method, m.Raw)
		}
	}
	if p.sent("interaction.start") {
		t.Errorf("interaction.start sent to a server that is not interactive: %s", p.wireDump())
	}
}

// toolCallsNamed returns the tools/call requests of the tool name, in order.
func toolCallsNamed(t *testing.T, p peerRun, name string) []wireMsg {
	t.Helper()
	var out []wireMsg
	for _, m := range p.requests("tools/call") {
		var params struct{ Name string }
		if err := json.Unmarshal(m.Params, &params); err != nil {
			t.Fatalf("tools/call params: %s", m.Raw)
		}
		if params.Name == name {
			out = append(out, m)
		}
	}
	return out
}

// TestScriptInteropTS runs three steps on the TypeScript reference server:
// --tool trigger-elicitation-request first (every field kind of its form
// answered from the file), then the file's steps: trigger-sampling-request
// and a ping. stdout holds one result per step, in that order.
func TestScriptInteropTS(t *testing.T) {
	t.Parallel()
	given := map[string]any{
		"name": "Ada Lovelace", "check": true, "firstLine": "Call me Ishmael.", "email": "ada@example.com",
		"homepage": "https://example.com/ada", "birthdate": "1815-12-10", "integer": 7, "number": 2.5,
		"untitledSingleSelectEnum": "Joey", "untitledMultipleSelectEnum": []any{"Piano", "Drums"},
		"titledSingleSelectEnum": "hero-3", "titledMultipleSelectEnum": []any{"fish-2", "fish-3"},
		"legacyTitledEnum": "pet-4",
	}
	answers := writeAnswers(t, `
steps:
  - {tool: trigger-sampling-request, arguments: {prompt: "What is the capital of France?"}}
  - {method: ping}
elicitation:
  - content: `+jsonArg(t, given)+`
sampling:
  - {text: "Paris, of course.", model: scripted}
`)
	p := runPeer(t, tsServer(t), "script", "--answers", answers, "--tool", "trigger-elicitation-request")
	p.mustExit(t, ExitOK)
	assertDegraded(t, p)
	lines := stdoutLines(t, p.result)
	if len(lines) != 3 {
		t.Fatalf("stdout has %d lines, want one per step:\n%s", len(lines), p.stdout)
	}

	// The form: every field went out as the file gave it, and the server got it.
	q := serverRequest(t, p, "elicitation/create")
	var sent struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(answerTo(t, p, q).Result, &sent); err != nil || sent.Action != "accept" {
		t.Fatalf("the answer to the form: %v", err)
	}
	if jsonArg(t, sent.Content) != jsonArg(t, given) {
		t.Errorf("the form went out as %v\nwant %v", sent.Content, given)
	}
	text := toolText(t, result{stdout: lines[0]})
	_, raw, ok := strings.Cut(text, "Raw result: ")
	var received struct {
		Content map[string]any `json:"content"`
	}
	if !ok || json.Unmarshal([]byte(raw), &received) != nil || jsonArg(t, received.Content) != jsonArg(t, given) {
		t.Errorf("the server received another form:\n%s", text)
	}

	// The sampling step, then the ping.
	if got := toolText(t, result{stdout: lines[1]}); !strings.Contains(got, `"scripted"`) || !strings.Contains(got, "Paris, of course.") {
		t.Errorf("sampling step: %q", got)
	}
	if lines[2] != "{}" || len(p.requests("ping")) != 1 {
		t.Errorf("ping step: %q", lines[2])
	}
	calls := p.requests("tools/call")
	if len(calls) != 2 || len(toolCallsNamed(t, p, "trigger-elicitation-request")) != 1 || !strings.Contains(string(calls[1].Params), "trigger-sampling-request") {
		t.Errorf("tools/call went out as %s", p.wireDump())
	}
}

// TestScriptInteropConformanceLegacy answers the Go SDK conformance
// server's SEP-1034 form (defaults fill what the file leaves out) and its
// SEP-1330 enum form (titled, untitled, legacy, single and multi-select),
// each from the file, in the 2025-11-25 era where they are plain
// elicitation/create requests. The server's own SDK refuses its titled
// multi-select schema with isError: that step ends the run with exit 1,
// so the declined form is a run of its own.
func TestScriptInteropConformanceLegacy(t *testing.T) {
	t.Parallel()
	enums := map[string]any{
		"legacyEnum": "opt3", "titledSingle": "value2", "untitledSingle": "option1",
		"titledMulti": []any{"value1", "value3"}, "untitledMulti": []any{"option2"},
	}
	answers := writeAnswers(t, `
steps:
  - tool: test_elicitation_sep1034_defaults
  - tool: test_elicitation_sep1330_enums
elicitation:
  - content: {name: Ada, age: 36}
  - content: `+jsonArg(t, enums)+`
`)
	p := runPeer(t, conformanceServer(t), "script", legacy, "--answers", answers)
	p.mustExit(t, ExitRPCError)
	p.assertLegacyHandshake(t, "2025-11-25", false)
	assertDegraded(t, p)
	lines := strings.Split(strings.TrimSuffix(p.stdout, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout has %d lines, want 2:\n%s", len(lines), p.stdout)
	}
	if d := p.diag(); len(d) != 1 || !strings.HasPrefix(d[0], `error: tool "test_elicitation_sep1330_enums" failed (isError): elicitation failed: `) {
		t.Errorf("stderr: %q", d)
	}
	if got := toolText(t, result{stdout: lines[0]}); got != "Elicitation result: action=accept, content=map[age:36 name:Ada score:95.5 status:active verified:true]" {
		t.Errorf("SEP-1034: %q", got)
	}

	// The enum form: the server asked every kind, mcpscope answered the
	// file's values. (The server's own SDK then refuses its titled
	// multi-select schema; that verdict is the server's, printed as is.)
	var asked []wireMsg
	for _, m := range p.wire {
		if !m.Out && m.isRequest() && m.Method == "elicitation/create" {
			asked = append(asked, m)
		}
	}
	if len(asked) != 2 {
		t.Fatalf("%d forms asked: %s", len(asked), p.wireDump())
	}
	var schema struct {
		RequestedSchema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"requestedSchema"`
	}
	if json.Unmarshal(asked[1].Params, &schema) != nil {
		t.Fatalf("SEP-1330 form: %s", asked[1].Raw)
	}
	for field := range enums {
		if _, ok := schema.RequestedSchema.Properties[field]; !ok {
			t.Errorf("the SEP-1330 form lacks %s: %s", field, asked[1].Raw)
		}
	}
	var sent struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(answerTo(t, p, asked[1]).Result, &sent); err != nil || sent.Action != "accept" || jsonArg(t, sent.Content) != jsonArg(t, enums) {
		t.Errorf("the SEP-1330 answer went out as %+v (%v), want %v", sent, err, enums)
	}

	declined := writeAnswers(t, "steps:\n  - tool: test_elicitation_sep1330_enums\nelicitation:\n  - action: decline\n")
	p = runPeer(t, conformanceServer(t), "script", legacy, "--answers", declined)
	if got := toolText(t, p.result); got != "Elicitation result: action=decline, content=map[]" {
		t.Errorf("SEP-1330 declined: %q", got)
	}
}

// TestScriptInteropConformanceMRTR walks input_required rounds over stdio
// in the 2026-07-28 era: three MRTR tools as steps of one script, their
// elicitations and sampling answered in order across the steps, and the
// roots from --root.
func TestScriptInteropConformanceMRTR(t *testing.T) {
	t.Parallel()
	root := "file:///srv/script"
	answers := writeAnswers(t, `
steps:
  - tool: test_input_required_result_elicitation
  - tool: test_input_required_result_multi_round
  - tool: test_input_required_result_sampling
  - tool: test_input_required_result_list_roots
elicitation:
  - content: {name: Ada}
  - content: {name: Bob}
  - content: {color: teal}
sampling:
  - text: Paris
`)
	p := runPeer(t, conformanceServer(t), "script", "--answers", answers, "--root", root)
	p.mustExit(t, ExitOK)
	p.assertModernHandshake(t)
	assertDegraded(t, p)
	want := []string{"Hello, Ada!", "Multi-round complete: Bob likes teal", "Sampling response: Paris", "Client exposed 1 root(s): " + root}
	lines := stdoutLines(t, p.result)
	var got []string
	for _, l := range lines {
		got = append(got, resultText(t, result{stdout: l}))
	}
	if !slices.Equal(got, want) {
		t.Errorf("results %q, want %q", got, want)
	}
	for _, tool := range []string{"test_input_required_result_elicitation", "test_input_required_result_multi_round",
		"test_input_required_result_sampling", "test_input_required_result_list_roots"} {
		rounds := toolCallsNamed(t, p, tool)
		if len(rounds) < 2 {
			t.Errorf("%s: %d round(s), the server never asked for input", tool, len(rounds))
			continue
		}
		for i, r := range rounds[1:] {
			var sent struct {
				InputResponses map[string]json.RawMessage `json:"inputResponses"`
			}
			if json.Unmarshal(r.Params, &sent) != nil || len(sent.InputResponses) == 0 {
				t.Errorf("%s round %d carries no inputResponses: %s", tool, i+2, r.Raw)
			}
		}
	}
}
