package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

// Calls from the explorer against the in-process demo over MCP-Flow: the
// requests are checked in the captured traffic.

func TestExploreToolCall(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.press("/")
	r.typeText("echo")
	r.press("enter", "f") // the demo runs wizards: f opens the tools/call form
	if x.mode != modeForm || x.form == nil || !strings.Contains(r.screenText(), "tools/call echo") {
		t.Fatalf("enter on echo: mode %d\n%s", x.mode, r.screenText())
	}
	r.press("ctrl+s")
	if x.mode != modeForm || len(sentRequests(st, proto.MethodToolsCall)) != 0 {
		t.Fatalf("an empty required message was sent (mode %d)", x.mode)
	}
	if s := r.screenText(); !strings.Contains(s, "✗") {
		t.Errorf("the validation error is not shown:\n%s", s)
	}
	r.typeText("héllo")
	r.press("ctrl+s")
	if x.mode != modeCalling || !strings.Contains(r.screenText(), "calling…") {
		t.Fatalf("submit: mode %d\n%s", x.mode, r.screenText())
	}
	r.until("the answer", func() bool { return x.mode == modeOutcome })
	if s := r.screenText(); !strings.Contains(s, "tools/call echo · answer") || !strings.Contains(s, "héllo") {
		t.Errorf("outcome:\n%s", s)
	}
	calls := sentRequests(st, proto.MethodToolsCall)
	if len(calls) != 1 || !strings.Contains(string(calls[0]), `"arguments":{"message":"héllo"}`) {
		t.Errorf("tools/call params %s", calls)
	}
	r.until("the status note", func() bool { return strings.Contains(m.status.message, "tools/call answered") })
	r.press("down", "end", "home")
	r.press("enter") // again: the form comes back with the last arguments
	if v, _ := x.form.Value(); x.mode != modeForm || string(v) != `{"message":"héllo"}` {
		t.Errorf("again: mode %d, form value %s", x.mode, v)
	}
	r.press("esc")
	if x.mode != modeList || m.overlay == nil {
		t.Errorf("esc on the form: mode %d, overlay %v", x.mode, m.overlay)
	}
}

func TestExploreCancelAndDrop(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.press("/")
	r.typeText("analyze")
	r.press("enter", "f", "ctrl+s")
	r.until("the request on the wire", func() bool {
		_, sent := x.inflight.current()
		return sent
	})
	r.press("ctrl+x")
	r.until("the cancelled outcome", func() bool { return x.mode == modeOutcome })
	if s := r.screenText(); !strings.Contains(s, "tools/call analyze · failed") || !strings.Contains(s, "cancel") {
		t.Errorf("outcome:\n%s", s)
	}
	r.until("$/cancel on the wire", func() bool { return len(sentRequests(st, proto.MethodFlowCancel)) == 1 })
	// esc while calling drops the answer; the status bar still reports it.
	r.press("esc", "f", "ctrl+s")
	r.press("esc")
	if x.mode != modeList {
		t.Fatalf("esc while calling: mode %d", x.mode)
	}
	r.until("the dropped answer's note", func() bool { return strings.Contains(m.status.message, "tools/call answered") })
	if x.mode != modeList || x.out != nil {
		t.Errorf("a dropped answer was shown (mode %d)", x.mode)
	}
}

func TestExploreResourceRead(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.press("2", "down", "enter")
	uri := x.lists[tabResources].items[1].uri
	r.until("the resource", func() bool { return x.mode == modeOutcome })
	if s := r.screenText(); !strings.Contains(s, "resources/read "+uri+" · answer") || !strings.Contains(s, "["+uri) {
		t.Errorf("outcome:\n%s", s)
	}
	if reads := sentRequests(st, proto.MethodResourcesRead); len(reads) != 1 || !strings.Contains(string(reads[0]), uri) {
		t.Errorf("resources/read params %s", reads)
	}
	r.press("esc")
	if x.mode != modeList || x.tab != tabResources {
		t.Errorf("esc on the outcome: mode %d tab %d", x.mode, x.tab)
	}
}

func TestExplorePromptGet(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.press("4", "down", "enter")
	if x.mode != modeForm || !strings.Contains(r.screenText(), "toolchain *") {
		t.Fatalf("enter on plan_scaffold:\n%s", r.screenText())
	}
	r.press("enter") // the only field: enter submits, and it is empty
	if x.mode != modeForm || len(sentRequests(st, proto.MethodPromptsGet)) != 0 {
		t.Fatalf("a prompt without its required argument was sent")
	}
	r.typeText("go")
	r.press("enter")
	r.until("the prompt", func() bool { return x.mode == modeOutcome })
	if s := r.screenText(); !strings.Contains(s, "[user] I start a new go project") {
		t.Errorf("outcome:\n%s", s)
	}
	if got := sentRequests(st, proto.MethodPromptsGet); len(got) != 1 || !strings.Contains(string(got[0]), `"arguments":{"toolchain":"go"}`) {
		t.Errorf("prompts/get params %s", got)
	}
}

func TestExploreTemplateRead(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	tmpl := `{"uriTemplate":"template://{category}/{toolchain}/cli{?lang}","name":"cli templates","mimeType":"text/plain"}`
	m.Update(exploreListMsg{gen: x.listGen, tab: tabTemplates, items: []json.RawMessage{json.RawMessage(tmpl)}})
	r.press("3", "enter")
	if x.mode != modeForm || x.tmpl == nil {
		t.Fatalf("enter on a template: mode %d", x.mode)
	}
	if s := r.screenText(); !strings.Contains(s, "category *") || !strings.Contains(s, "URI: template:////cli") {
		t.Errorf("template form:\n%s", s)
	}
	r.press("ctrl+s")
	if x.mode != modeForm || len(sentRequests(st, proto.MethodResourcesRead)) != 0 {
		t.Fatalf("a template without its variables was read")
	}
	r.typeText("readme")
	r.press("tab")
	r.typeText("go")
	if s := r.screenText(); !strings.Contains(s, "URI: template://readme/go/cli") {
		t.Errorf("the URI preview does not follow the fields:\n%s", s)
	}
	r.press("ctrl+s")
	r.until("the resource", func() bool { return x.mode == modeOutcome })
	if s := r.screenText(); !strings.Contains(s, "resources/read template://readme/go/cli · answer") {
		t.Errorf("outcome:\n%s", s)
	}
	if got := sentRequests(st, proto.MethodResourcesRead); len(got) != 1 || !strings.Contains(string(got[0]), `"uri":"template://readme/go/cli"`) {
		t.Errorf("resources/read params %s", got)
	}
	// Again, with the last values and an optional query variable that
	// needs percent-encoding.
	r.press("enter", "tab", "tab")
	r.typeText("é&x")
	if s := r.screenText(); !strings.Contains(s, "URI: template://readme/go/cli?lang=%C3%A9%26x") {
		t.Errorf("second form:\n%s", s)
	}
}

func TestExplorePromptWithoutArguments(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	m.Update(exploreListMsg{gen: x.listGen, tab: tabPrompts, items: []json.RawMessage{json.RawMessage(`{"name":"bare"}`)}})
	r.press("4", "enter")
	if x.mode != modeCalling {
		t.Fatalf("enter on a prompt without arguments: mode %d", x.mode)
	}
	r.until("the answer", func() bool { return x.mode == modeOutcome })
	if got := sentRequests(st, proto.MethodPromptsGet); len(got) != 1 || string(got[0]) != `{"name":"bare"}` {
		t.Errorf("prompts/get params %s", got)
	}
	if s := r.screenText(); !strings.Contains(s, "prompts/get bare · failed") || !strings.Contains(s, "error -32602 Invalid params") {
		t.Errorf("outcome:\n%s", s)
	}
}

// TestExploreJSONEditor sends a tool's arguments from the form's JSON
// editor (ctrl+e), which validates against the same schema.
func TestExploreJSONEditor(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.press("/")
	r.typeText("echo")
	r.press("enter", "f") // the demo runs wizards: f opens the tools/call form
	r.typeText("via json")
	r.press("ctrl+e")
	if !x.form.EditingJSON() || !strings.Contains(r.screenText(), `"message": "via json"`) {
		t.Fatalf("ctrl+e did not open the JSON editor:\n%s", r.screenText())
	}
	r.press("ctrl+s")
	r.until("the answer", func() bool { return x.mode == modeOutcome })
	if got := sentRequests(st, proto.MethodToolsCall); len(got) != 1 || !strings.Contains(string(got[0]), `"arguments":{"message":"via json"}`) {
		t.Errorf("tools/call params %s", got)
	}
}
