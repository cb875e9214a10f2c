package explore

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Calls from the explorer against the in-process demo over MCP-Flow: the
// requests are checked in the captured traffic.

func TestExploreToolCall(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "f") // the demo runs wizards: f opens the tools/call form
	if x.mode != modeForm || x.form == nil || !strings.Contains(r.ScreenText(), "tools/call echo") {
		t.Fatalf("enter on echo: mode %d\n%s", x.mode, r.ScreenText())
	}
	r.Press("ctrl+s")
	if x.mode != modeForm || len(screentest.SentRequests(st, mcp.MethodToolsCall)) != 0 {
		t.Fatalf("an empty required message was sent (mode %d)", x.mode)
	}
	if s := r.ScreenText(); !strings.Contains(s, "✗") {
		t.Errorf("the validation error is not shown:\n%s", s)
	}
	r.TypeText("héllo")
	r.Press("ctrl+s")
	if x.mode != modeCalling || !strings.Contains(r.ScreenText(), "calling…") {
		t.Fatalf("submit: mode %d\n%s", x.mode, r.ScreenText())
	}
	r.Until("the answer", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "tools/call echo · answer") || !strings.Contains(s, "héllo") {
		t.Errorf("outcome:\n%s", s)
	}
	calls := screentest.SentRequests(st, mcp.MethodToolsCall)
	if len(calls) != 1 || !strings.Contains(string(calls[0]), `"arguments":{"message":"héllo"}`) {
		t.Errorf("tools/call params %s", calls)
	}
	screentest.CheckAskedProgress(t, st, mcp.MethodToolsCall)
	sentID := callID(t, st, mcp.MethodToolsCall)
	if s := r.ScreenText(); !regexp.MustCompile(`tools/call echo · answer · id ` + sentID + ` · [0-9.]+ ?(µs|ms|s)`).MatchString(s) {
		t.Errorf("the answer does not show its request id %s and latency:\n%s", sentID, s)
	}
	r.Press("w")
	if len(m.host.Shown) != 1 || m.host.Shown[0].String() != sentID {
		t.Errorf("w on the answer showed the frames of %v, want id %s", m.host.Shown, sentID)
	}
	r.Until("the status note", func() bool { return strings.Contains(m.status.message, "tools/call answered") })
	r.Press("down", "end", "home")
	r.Press("enter") // again: the form comes back with the last arguments
	if v, _ := x.form.Value(); x.mode != modeForm || string(v) != `{"message":"héllo"}` {
		t.Errorf("again: mode %d, form value %s", x.mode, v)
	}
	r.Press("esc")
	if x.mode != modeList || m.overlay == nil {
		t.Errorf("esc on the form: mode %d, overlay %v", x.mode, m.overlay)
	}
}

func TestExploreCancelAndDrop(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("analyze")
	r.Press("enter", "f", "ctrl+s")
	r.Until("the request on the wire", func() bool {
		_, sent := x.inflight.Get()
		return sent
	})
	r.Press("ctrl+x")
	r.Until("the cancelled outcome", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "tools/call analyze · cancelled") {
		t.Errorf("outcome:\n%s", s)
	}
	r.Until("$/cancel on the wire", func() bool { return len(screentest.SentRequests(st, flow.MethodFlowCancel)) == 1 })
	// esc while calling drops the answer; the status bar still reports it.
	r.Press("esc", "f", "ctrl+s")
	r.Press("esc")
	if x.mode != modeList {
		t.Fatalf("esc while calling: mode %d", x.mode)
	}
	r.Until("the dropped answer's note", func() bool { return strings.Contains(m.status.message, "tools/call answered") })
	if x.mode != modeList || x.out != nil {
		t.Errorf("a dropped answer was shown (mode %d)", x.mode)
	}
}

func TestExploreResourceRead(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("2", "down", "enter")
	uri := x.lists[tabResources].items[1].uri
	r.Until("the resource", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "resources/read "+uri+" · answer") || !strings.Contains(s, "["+uri) {
		t.Errorf("outcome:\n%s", s)
	}
	if reads := screentest.SentRequests(st, mcp.MethodResourcesRead); len(reads) != 1 || !strings.Contains(string(reads[0]), uri) {
		t.Errorf("resources/read params %s", reads)
	}
	screentest.CheckAskedProgress(t, st, mcp.MethodResourcesRead)
	r.Press("esc")
	if x.mode != modeList || x.tab != tabResources {
		t.Errorf("esc on the outcome: mode %d tab %d", x.mode, x.tab)
	}
}

func TestExplorePromptGet(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("4", "down", "enter")
	if x.mode != modeForm || !strings.Contains(r.ScreenText(), "toolchain *") {
		t.Fatalf("enter on plan_scaffold:\n%s", r.ScreenText())
	}
	r.Press("enter") // the only field: enter submits, and it is empty
	if x.mode != modeForm || len(screentest.SentRequests(st, mcp.MethodPromptsGet)) != 0 {
		t.Fatalf("a prompt without its required argument was sent")
	}
	r.TypeText("go")
	r.Press("enter")
	r.Until("the prompt", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "[user] I start a new go project") {
		t.Errorf("outcome:\n%s", s)
	}
	if got := screentest.SentRequests(st, mcp.MethodPromptsGet); len(got) != 1 || !strings.Contains(string(got[0]), `"arguments":{"toolchain":"go"}`) {
		t.Errorf("prompts/get params %s", got)
	}
	screentest.CheckAskedProgress(t, st, mcp.MethodPromptsGet)
}

func TestExploreTemplateRead(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	tmpl := `{"uriTemplate":"template://{category}/{toolchain}/cli{?lang}","name":"cli templates","mimeType":"text/plain"}`
	m.Update(exploreListMsg{gen: x.listGen, tab: tabTemplates, items: []json.RawMessage{json.RawMessage(tmpl)}})
	r.Press("3", "enter")
	if x.mode != modeForm || x.tmpl == nil {
		t.Fatalf("enter on a template: mode %d", x.mode)
	}
	if s := r.ScreenText(); !strings.Contains(s, "category *") || !strings.Contains(s, "URI: template:////cli") {
		t.Errorf("template form:\n%s", s)
	}
	r.Press("ctrl+s")
	if x.mode != modeForm || len(screentest.SentRequests(st, mcp.MethodResourcesRead)) != 0 {
		t.Fatalf("a template without its variables was read")
	}
	r.TypeText("readme")
	r.Press("tab")
	r.TypeText("go")
	if s := r.ScreenText(); !strings.Contains(s, "URI: template://readme/go/cli") {
		t.Errorf("the URI preview does not follow the fields:\n%s", s)
	}
	r.Press("ctrl+s")
	r.Until("the resource", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "resources/read template://readme/go/cli · answer") {
		t.Errorf("outcome:\n%s", s)
	}
	if got := screentest.SentRequests(st, mcp.MethodResourcesRead); len(got) != 1 || !strings.Contains(string(got[0]), `"uri":"template://readme/go/cli"`) {
		t.Errorf("resources/read params %s", got)
	}
	// Again, with the last values and an optional query variable that
	// needs percent-encoding.
	r.Press("enter", "tab", "tab")
	r.TypeText("é&x")
	if s := r.ScreenText(); !strings.Contains(s, "URI: template://readme/go/cli?lang=%C3%A9%26x") {
		t.Errorf("second form:\n%s", s)
	}
}

func TestExplorePromptWithoutArguments(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	m.Update(exploreListMsg{gen: x.listGen, tab: tabPrompts, items: []json.RawMessage{json.RawMessage(`{"name":"bare"}`)}})
	r.Press("4", "enter")
	if x.mode != modeCalling {
		t.Fatalf("enter on a prompt without arguments: mode %d", x.mode)
	}
	r.Until("the answer", func() bool { return x.mode == modeOutcome })
	if got := screentest.SentRequests(st, mcp.MethodPromptsGet); len(got) != 1 || screentest.WithoutProgress(t, got[0]) != `{"name":"bare"}` {
		t.Errorf("prompts/get params %s", got)
	}
	if s := r.ScreenText(); !strings.Contains(s, "prompts/get bare · failed") || !strings.Contains(s, "error -32602 Invalid params") {
		t.Errorf("outcome:\n%s", s)
	}
}

// TestExploreJSONEditor sends a tool's arguments from the form's JSON
// editor (ctrl+e), which validates against the same schema.
func TestExploreJSONEditor(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "f") // the demo runs wizards: f opens the tools/call form
	r.TypeText("via json")
	r.Press("ctrl+e")
	if !x.form.EditingJSON() || !strings.Contains(r.ScreenText(), `"message": "via json"`) {
		t.Fatalf("ctrl+e did not open the JSON editor:\n%s", r.ScreenText())
	}
	r.Press("ctrl+s")
	r.Until("the answer", func() bool { return x.mode == modeOutcome })
	if got := screentest.SentRequests(st, mcp.MethodToolsCall); len(got) != 1 || !strings.Contains(string(got[0]), `"arguments":{"message":"via json"}`) {
		t.Errorf("tools/call params %s", got)
	}
}

// callID is the id of the one request of method sent in st, as JSON.
func callID(t *testing.T, st *capture.Store, method string) string {
	t.Helper()
	var id string
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method == method {
			id = f.Msg.ID.String()
		}
	}
	if id == "" {
		t.Fatalf("no %s was sent", method)
	}
	return id
}

// While its request runs, the explorer shows the time it has run, the
// server's latest progress as a bar and the request's log lines.
func TestExploreWaitingShowsProgress(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("analyze")
	r.Press("enter", "f", "ctrl+s")
	var id jsonrpc.ID
	r.Until("the request on the wire", func() bool {
		var sent bool
		id, sent = x.inflight.Get()
		return sent
	})
	if s := r.ScreenText(); !strings.Contains(s, "elapsed ") {
		t.Errorf("the waiting view has no clock:\n%s", s)
	}
	m.host.Progresses = map[string]screen.ProgressState{id.Key(): {Reports: 2, Progress: 2, Total: 5,
		Message: "step 2/5", Logs: []string{"warming up", "step 2/5 done"}}}
	s := r.ScreenText()
	for _, want := range []string{" 40% 2/5 · step 2/5", "── log ──", "warming up", "step 2/5 done", "ctrl+x cancels the request"} {
		if !strings.Contains(s, want) {
			t.Errorf("the waiting view lacks %q:\n%s", want, s)
		}
	}
	r.Press("ctrl+x")
	r.Until("the cancelled outcome", func() bool { return x.mode == modeOutcome })
}
