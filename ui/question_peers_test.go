package ui

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
	"github.com/mcpscope/mcpscope/ui/question"
)

// questionFlow is the real program on a stdio peer, its questions asked
// through a bridge, with the helpers of the flows below.
type questionFlow struct {
	t      *testing.T
	store  *capture.Store
	bridge *question.Bridge
	probe  *screenProbe
	tm     *teatest.TestModel
}

// startQuestionFlow runs the program against argv speaking version ("" to
// let the session pick), with roots declared, and waits for the connection.
func startQuestionFlow(t *testing.T, argv []string, version string, roots []mcp.Root) *questionFlow {
	t.Helper()
	return startPeerFlow(t, argv[0], stdioTransport(argv), client.Options{ProtocolVersion: version}, roots)
}

// transportFor builds a fresh transport that reports every frame to sink.
type transportFor func(sink capture.Sink) (client.Transport, error)

// stdioTransport spawns argv for each connection.
func stdioTransport(argv []string) transportFor {
	return func(sink capture.Sink) (client.Transport, error) {
		return stdio.New(stdio.Config{Command: argv[0], Args: argv[1:], Sink: sink}), nil
	}
}

// dialerFor connects a session configured by opts through newTransport.
func dialerFor(newTransport transportFor, opts client.Options) Dialer {
	return func(sink capture.Sink) (Link, error) {
		tr, err := newTransport(sink)
		if err != nil {
			return Link{}, err
		}
		return Link{Transport: tr, Session: client.New(tr, opts)}, nil
	}
}

// startPeerFlow runs the program against the peer newTransport reaches,
// named target, its session configured by opts with the bridge as the
// handler and roots declared, and waits for the connection.
func startPeerFlow(t *testing.T, target string, newTransport transportFor, opts client.Options, roots []mcp.Root) *questionFlow {
	t.Helper()
	b := question.NewBridge(roots)
	opts.Handler, opts.Roots = b, b.Roots()
	f := &questionFlow{t: t, store: capture.NewStore(capture.Config{}), bridge: b}
	f.probe = &screenProbe{Model: New(Config{Store: f.store, Dial: dialerFor(newTransport, opts), Target: target, Questions: b})}
	f.tm = f.probe.run(t, 230, 50) // the screen keeps 138 columns beside the wire
	b.SetSend(f.tm.Send)
	f.probe.waitText(t, "MCP connected")
	return f
}

// callTool opens the tool in the explorer (open already), types its
// arguments with args, and sends the call.
func (f *questionFlow) callTool(name string, args func()) {
	f.t.Helper()
	sendKeys(f.tm, "/")
	sendText(f.tm, name)
	sendKeys(f.tm, "enter")
	f.probe.waitText(f.t, "› "+name+" ")
	sendKeys(f.tm, "enter")
	f.probe.waitText(f.t, "tools/call "+name)
	if args != nil {
		args()
	}
	sendKeys(f.tm, "ctrl+s")
}

// answer waits for the outcome of a call, returns the screen and goes
// back to the whole list.
func (f *questionFlow) answer(name string, texts ...string) string {
	f.t.Helper()
	s := f.probe.waitText(f.t, append([]string{"tools/call " + name + " · answer"}, texts...)...)
	sendKeys(f.tm, "esc", "esc")
	f.probe.waitScreen(f.t, "the whole list", func(s string) bool { return !strings.Contains(s, "tools match") })
	return s
}

// quit ends the program.
func (f *questionFlow) quit() {
	sendKeys(f.tm, "esc", "q")
	f.tm.WaitFinished(f.t, teatest.WithFinalTimeout(guard.Hang))
}

// answersTo returns the results the client sent for the server requests
// of method, in order.
func answersTo(st *capture.Store, method string) []json.RawMessage {
	asked := map[string]bool{}
	var out []json.RawMessage
	for _, fr := range st.Window(1, st.Len()) {
		m := fr.Msg
		switch {
		case m == nil || m.ID == nil:
		case fr.Dir == capture.In && m.Method == method:
			asked[m.ID.Key()] = true
		case fr.Dir == capture.Out && m.IsResponse() && asked[m.ID.Key()]:
			out = append(out, m.Result)
		}
	}
	return out
}

// sameValue reports whether two JSON texts hold the same value.
func sameValue(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

// TestQuestionsTSReferenceServer drives the TUI against the TypeScript
// reference server: trigger-elicitation-request's form is filled by keys,
// one field of every kind, and accepted; trigger-sampling-request is
// answered by typing a reply; a root added in the roots editor reaches the
// server, which asks roots/list again on notifications/roots/list_changed.
func TestQuestionsTSReferenceServer(t *testing.T) {
	t.Parallel()
	f := startQuestionFlow(t, peertest.TSEverything(t, "stdio"), "", tsSeedRoots)
	f.answerTSQuestions()
	f.quit()
	if !hasFrame(f.store, capture.Out, mcp.MethodNotifyRootsListChanged) {
		t.Error("no notifications/roots/list_changed in the traffic")
	}
}

// tsSeedRoots are the roots answerTSQuestions expects declared.
var tsSeedRoots = []mcp.Root{{URI: "file:///srv/seed", Name: "seed"}}

// answerTSQuestions opens the explorer on the TypeScript reference server
// (roots tsSeedRoots declared) and answers its questions by keys: its
// elicitation form, one field of every kind; its sampling request; and the
// roots/list it asks again once a root is added in the roots editor. It
// leaves the explorer open on the whole list.
func (f *questionFlow) answerTSQuestions() {
	t := f.t
	t.Helper()
	f.explore()

	f.callTool("trigger-elicitation-request", nil)
	f.probe.waitText(t, "Question · elicitation · form · request ", "Please provide inputs for the following fields:")
	sendText(f.tm, "Ada Lovelace")               // name
	sendKeys(f.tm, "tab", "space", "tab", "tab") // check; firstLine keeps its default
	sendText(f.tm, "ada@example.com")
	sendKeys(f.tm, "tab")
	sendText(f.tm, "https://ada.example.org")
	sendKeys(f.tm, "tab")
	sendText(f.tm, "1815-12-10")
	sendKeys(f.tm, "tab", "backspace", "backspace") // integer: 42 → 7
	sendText(f.tm, "7")
	sendKeys(f.tm, "tab", "backspace", "backspace", "backspace", "backspace") // number: 3.14 → 2.5
	sendText(f.tm, "2.5")
	sendKeys(f.tm, "tab", "right", "space")          // untitled single: Rachel
	sendKeys(f.tm, "tab", "right", "space")          // untitled multi: + Piano
	sendKeys(f.tm, "tab", "left", "space")           // titled single: Wonder Woman
	sendKeys(f.tm, "tab", "right", "space")          // titled multi: + Salmon
	sendKeys(f.tm, "tab", "right", "right", "space") // legacy enumNames: Birds
	sendKeys(f.tm, "ctrl+s")
	f.answer("trigger-elicitation-request", "User provided the requested information", "- Name: Ada Lovelace",
		"- Email: ada@example.com", "- Birthdate: 1815-12-10", "- Favorite Integer: 7", "- Favorite Number: 2.5")
	want := `{"action":"accept","content":{"name":"Ada Lovelace","check":true,"firstLine":"It was a dark and stormy night.",
		"email":"ada@example.com","homepage":"https://ada.example.org","birthdate":"1815-12-10","integer":7,"number":2.5,
		"untitledSingleSelectEnum":"Rachel","untitledMultipleSelectEnum":["Guitar","Piano"],"titledSingleSelectEnum":"hero-3",
		"titledMultipleSelectEnum":["fish-1","fish-2"],"legacyTitledEnum":"pet-3"}}`
	if got := answersTo(f.store, mcp.MethodElicitationCreate); len(got) != 1 || !sameValue(t, string(got[0]), want) {
		t.Errorf("the server got %s\nwant %s", got, want)
	}

	f.callTool("trigger-sampling-request", func() { sendText(f.tm, "What is the capital of France?") })
	f.probe.waitText(t, "Question · sampling · request ", "system prompt: You are a helpful test server.",
		"[user] Resource trigger-sampling-request context: What is the capital of France?", "maxTokens 100 · temperature 0.7")
	sendText(f.tm, "Paris is the capital.")
	sendKeys(f.tm, "ctrl+s")
	f.answer("trigger-sampling-request", `"text": "Paris is the capital."`, `"model": "mcpscope-user"`)

	asked := len(answersTo(f.store, mcp.MethodRootsList))
	sendKeys(f.tm, "esc", "ctrl+r")
	f.probe.waitText(t, "Roots · 1 exposed", "file:///srv/seed  (seed)")
	sendKeys(f.tm, "a")
	sendText(f.tm, "file:///srv/tui-root")
	sendKeys(f.tm, "tab")
	sendText(f.tm, "tui")
	sendKeys(f.tm, "enter", "ctrl+s")
	f.probe.waitText(t, "2 roots saved; sent notifications/roots/list_changed")
	f.probe.waitScreen(t, "roots/list asked again", func(string) bool {
		got := answersTo(f.store, mcp.MethodRootsList)
		return len(got) > asked && strings.Contains(string(got[len(got)-1]), "file:///srv/tui-root")
	})
	f.explore()
	f.callTool("get-roots-list", nil)
	f.answer("get-roots-list", "(2 total)", "file:///srv/tui-root")
}

// TestQuestionsConformanceLegacy: the Go SDK conformance server in the
// 2025-11-25 era asks its SEP-1034 form (accepted as prefilled with the
// defaults) and its SEP-1330 enums (every enum kind, chosen by keys).
func TestQuestionsConformanceLegacy(t *testing.T) {
	f := startQuestionFlow(t, []string{peertest.GoSDKConformance(t)}, mcp.ProtocolVersion20251125, nil)
	f.explore()

	f.answerSEP1034Defaults()

	f.callTool("test_elicitation_sep1330_enums", nil)
	f.probe.waitText(t, "Question · elicitation · form · request ", "legacyEnum")
	sendKeys(f.tm, "right", "space")                          // legacyEnum: opt2
	sendKeys(f.tm, "tab", "space", "right", "right", "space") // titledMulti: 1 and 3
	sendKeys(f.tm, "tab", "right", "space")                   // titledSingle: value2
	sendKeys(f.tm, "tab", "space", "tab", "space")            // untitled: option1, option1
	sendKeys(f.tm, "ctrl+s")
	// The server cannot take any answer here: it rejects its own schema
	// once the answer comes ("titledMulti items must specify enum"); what
	// it was sent is checked below. Its result says so with isError, and
	// the explorer shows the call failed.
	f.probe.waitText(t, "tools/call test_elicitation_sep1330_enums · failed", `tool "test_elicitation_sep1330_enums" failed (isError)`)
	sendKeys(f.tm, "esc", "esc")
	want := `{"action":"accept","content":{"legacyEnum":"opt2","titledMulti":["value1","value3"],"titledSingle":"value2","untitledMulti":["option1"],"untitledSingle":"option1"}}`
	if got := answersTo(f.store, mcp.MethodElicitationCreate); len(got) != 2 || !sameValue(t, string(got[1]), want) {
		t.Errorf("the server got %s\nwant %s", got, want)
	}
	f.quit()
}

// explore opens the explorer on the whole list of tools.
func (f *questionFlow) explore() {
	f.t.Helper()
	sendKeys(f.tm, "e")
	f.probe.waitText(f.t, " · / filters")
}

// answerSEP1034Defaults calls the conformance server's SEP-1034 tool in the
// open explorer and accepts its form as prefilled with the defaults.
func (f *questionFlow) answerSEP1034Defaults() {
	f.t.Helper()
	f.callTool("test_elicitation_sep1034_defaults", nil)
	f.probe.waitText(f.t, "Question · elicitation · form · request ", "John Doe")
	sendKeys(f.tm, "ctrl+s")
	f.answer("test_elicitation_sep1034_defaults", "action=accept", "age:30 name:John Doe score:95.5 status:active verified:true")
}

// TestQuestionsMRTRRounds: against the Go SDK conformance server in the
// 2026-07-28 era, a tool that asks twice through input_required results is
// answered by keys in the same overlay (each question names the input and
// the request whose result asked it), and the traffic shows the three
// requests as the rounds of one call, linked for the l key.
func TestQuestionsMRTRRounds(t *testing.T) {
	startQuestionFlow(t, []string{peertest.GoSDKConformance(t)}, "", nil).answerMRTRRounds()
}

// answerMRTRRounds calls the conformance server's multi-round MRTR tool in
// the explorer, answers both its questions by keys, checks the three
// requests read as the rounds of one call linked for the l key, and quits.
func (f *questionFlow) answerMRTRRounds() {
	t := f.t
	t.Helper()
	const tool = "test_input_required_result_multi_round"
	f.explore()
	f.callTool(tool, nil)
	f.probe.waitText(t, `input "step1" of the input_required result of request `, "Step 1: What is your name?")
	sendText(f.tm, "Ada")
	sendKeys(f.tm, "ctrl+s")
	f.probe.waitText(t, `of the input_required result of request `, "color")
	sendText(f.tm, "teal")
	sendKeys(f.tm, "ctrl+s")
	f.answer(tool, "Multi-round complete: Ada likes teal")
	sendKeys(f.tm, "esc")
	f.probe.waitText(t, "tools/call · round 1 · test_input", "tools/call · round 2 · test_input", "tools/call · round 3 · test_input",
		"result · tools/call · round 3 · test_input")
	f.quit()

	var first *capture.Frame
	calls := 0
	for _, fr := range f.store.Window(1, f.store.Len()) {
		if fr.Dir == capture.Out && fr.Msg != nil && fr.Msg.Method == mcp.MethodToolsCall {
			calls++
			if first == nil {
				first = fr
			}
		}
	}
	walked := 0
	if first != nil {
		if c, ok := f.probe.idx.lookup(first); ok {
			walked = len(f.probe.idx.linkedSeqs(c))
		}
	}
	if calls != 3 || walked != 6 {
		t.Errorf("%d tools/call requests; the l key walks %d frames from the first, want 3 rounds of 2 frames", calls, walked)
	}
}
