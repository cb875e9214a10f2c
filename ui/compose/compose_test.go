package compose

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/fuzzy"
)

func TestComposeOpenAndClose(t *testing.T) {
	m, c := openCompose(t)
	if c.stage != stagePick || !strings.Contains(screenText(m), "Compose · pick a method") {
		t.Fatalf(": did not open the picker:\n%s", screenText(m))
	}
	if len(c.picker.rows) != len(composeMethods(mcp.DialectMCP)) {
		t.Errorf("the picker lists %d methods, want the %d of MCP", len(c.picker.rows), len(composeMethods(mcp.DialectMCP)))
	}
	press(m, "q") // typed into the filter, not quitting
	if c.picker.input.Value() != "q" {
		t.Fatalf("q in the picker: filter %q", c.picker.input.Value())
	}
	press(m, "esc")
	if m.overlay != nil {
		t.Error("esc in the picker did not close the composer")
	}
}

func TestComposeCatalogueFollowsDialect(t *testing.T) {
	names := func(d mcp.Dialect) string {
		var b strings.Builder
		for _, m := range composeMethods(d) {
			b.WriteString(m.name + " ")
		}
		return b.String()
	}
	for _, want := range []string{mcp.MethodToolsCall, mcp.MethodNotifyRootsListChanged, mcp.MethodInteractionStart, mcp.MethodCapabilities} {
		if !strings.Contains(names(mcp.DialectMCP), want+" ") {
			t.Errorf("MCP catalogue lacks %s", want)
		}
	}
	if strings.Contains(names(mcp.DialectMCP), flow.MethodFlowCancel) {
		t.Error("the MCP catalogue offers $/cancel")
	}
	if !strings.Contains(names(mcp.DialectMCPFlow), flow.MethodFlowCancel) || !strings.Contains(names(mcp.DialectMCPFlow), flow.MethodFlowShutdown) {
		t.Error("the MCP-Flow catalogue lacks $/cancel or $/shutdown")
	}
}

func TestComposeFilter(t *testing.T) {
	m, c := openCompose(t)
	typeKeys(m, "rlist")
	if len(c.picker.rows) < 2 || c.picker.rows[0].desc != "custom method" || c.picker.rows[0].call.method != "rlist" {
		t.Fatalf("the typed text is not offered first: %+v", c.picker.rows)
	}
	for _, r := range c.picker.rows[1:] {
		if _, ok := fuzzy.Score("rlist", r.call.method); !ok {
			t.Errorf("%s does not match rlist", r.call.method)
		}
		if r.call.method == mcp.MethodPing {
			t.Error("ping matches rlist")
		}
	}
	press(m, "down")
	press(m, "down")
	press(m, "up")
	if c.picker.sel != 1 {
		t.Errorf("down down up: selection %d, want 1", c.picker.sel)
	}
	for range 5 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	typeKeys(m, "tools/list")
	if r, _ := c.picker.selected(); r.call.method != mcp.MethodToolsList || r.desc == "custom method" || c.picker.sel != 0 {
		t.Errorf("an exact name must be picked first and not offered as custom: %+v", c.picker.rows[:2])
	}
}

func TestComposeCustomMethod(t *testing.T) {
	m, _ := openCompose(t)
	c := pick(t, m, "x/custom")
	if c.call.method != "x/custom" || c.call.notify || editorJSON(t, c) != "{}" {
		t.Errorf("custom method: %+v, params %s", c.call, editorJSON(t, c))
	}
	press(m, "esc")
	for range len("x/custom") {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	typeKeys(m, "notifications/custom")
	m.Update(screentest.Ctrl('t')) // a request after all
	m.Update(screentest.Ctrl('t')) // no: a notification
	if r, _ := c.picker.selected(); !r.call.notify {
		t.Error("a custom notifications/… method must default to a notification")
	}
	m.Update(screentest.Ctrl('t'))
	press(m, "enter")
	if c.stage != stageEdit || c.call.notify || !strings.Contains(screenText(m), "Compose · request notifications/custom") {
		t.Errorf("ctrl+t in the picker did not make a request of the selected method:\n%s", screenText(m))
	}
}

func TestComposeTemplates(t *testing.T) {
	for method, want := range map[string]string{
		mcp.MethodToolsCall:       `{"name":"","arguments":{}}`,
		mcp.MethodResourcesRead:   `{"uri":""}`,
		mcp.MethodPromptsGet:      `{"name":"","arguments":{}}`,
		mcp.MethodLoggingSetLevel: `{"level":"info"}`,
		mcp.MethodPing:            `{}`,
	} {
		m, _ := openCompose(t)
		if got := editorJSON(t, pick(t, m, method)); got != want {
			t.Errorf("%s starts with %s, want %s", method, got, want)
		}
	}
}

func TestComposeInvalidJSONRefused(t *testing.T) {
	m, _ := openCompose(t)
	peer := connectFake(t, m)
	c := pick(t, m, "tools/call")
	press(m, "x") // x{ … }
	m.Update(screentest.Ctrl('s'))
	if c.stage != stageEdit || !strings.Contains(screenText(m), "line 1, column 1") {
		t.Errorf("the editor does not show where the JSON breaks:\n%s", screenText(m))
	}
	if sent := peer.After(); len(sent) != 0 {
		t.Errorf("invalid JSON was sent: %v", sent[0].Method)
	}
	if len(m.composed.calls) != 0 {
		t.Error("invalid JSON went into the history")
	}
}

func TestComposeSendRequest(t *testing.T) {
	m, _ := openCompose(t)
	peer := connectFake(t, m)
	peer.SetHold(true)
	c := pick(t, m, "tools/call")
	cmd := func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }()
	if c.stage != stageWait || cmd == nil {
		t.Fatalf("ctrl+s: stage %d", c.stage)
	}
	scr := func() string { return screenText(m) }
	screentest.RunInBackground(cmd) // the request goes out and stays unanswered
	screentest.WaitFor(t, "the request id", func() bool { _, ok := c.pending.requestID(); return ok })
	if !strings.Contains(scr(), "waiting for id 2…") {
		t.Errorf("while waiting:\n%s", scr())
	}
	press(m, "esc") // back to the editor; the answer of this send is dropped
	peer.SetHold(false)
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	if c.stage != stageAnswer || !strings.Contains(scr(), "← result · tools/call · id 3") ||
		!strings.Contains(scr(), `tools/call with {"_meta":{"progressToken":3},"name":"","arguments":{}}`) {
		t.Fatalf("the answer is not shown:\n%s", scr())
	}
	sent := peer.After()
	if len(sent) != 2 || sent[1].Method != mcp.MethodToolsCall || sent[1].Kind() != jsonrpc.KindRequest {
		t.Fatalf("sent %d messages", len(sent))
	}
	screentest.AskedProgress(t, sent[1])
	if p := decodeParams(t, sent[1]); p["name"] != "" {
		t.Errorf("params %s", sent[1].Params)
	}
	runUntilAnswer(t, m, press(m, "s")) // the same again
	if sent := peer.After(); len(sent) != 3 || sent[2].Method != mcp.MethodToolsCall || screentest.AskedProgress(t, sent[2]) != screentest.AskedProgress(t, sent[1]) {
		t.Errorf("s did not send the same request again")
	}
	if len(m.composed.calls) != 1 {
		t.Errorf("the history holds %d calls, want the one sent three times", len(m.composed.calls))
	}
}

func TestComposeErrorAnswer(t *testing.T) {
	m, _ := openCompose(t)
	connectFake(t, m)
	pick(t, m, "no/such")
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	if s := screenText(m); !strings.Contains(s, "✗ error · no/such") || !strings.Contains(s, "error -32601 Method not found") ||
		!strings.Contains(s, "no such method here") {
		t.Errorf("the error is not shown:\n%s", s)
	}
}

func TestComposeNotification(t *testing.T) {
	m, _ := openCompose(t)
	peer := connectFake(t, m)
	c := pick(t, m, "tools/list")
	m.Update(screentest.Ctrl('t'))
	if !c.call.notify || !strings.Contains(screenText(m), "Compose · notification tools/list") {
		t.Fatalf("ctrl+t did not switch to a notification:\n%s", screenText(m))
	}
	m.Update(screentest.Ctrl('t'))
	m.Update(screentest.Ctrl('t'))
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	if !strings.Contains(screenText(m), "→ notification sent · tools/list") {
		t.Errorf("the notification is not reported:\n%s", screenText(m))
	}
	sent := peer.After()
	if len(sent) != 1 || sent[0].Method != mcp.MethodToolsList || sent[0].ID != nil {
		t.Fatalf("sent %+v, want one notification", sent)
	}
	var captured *capture.Frame
	for _, f := range m.store.Window(1, m.store.Len()) {
		if f.Msg != nil && f.Msg.Method == mcp.MethodToolsList && f.Dir == capture.Out {
			captured = f
		}
	}
	if captured == nil || captured.Msg.ID != nil || strings.Contains(string(captured.Raw), `"id"`) {
		t.Errorf("the captured frame is not a notification: %+v", captured)
	}
}

func TestComposeHistoryRecall(t *testing.T) {
	m, _ := openCompose(t)
	peer := connectFake(t, m)
	pick(t, m, "resources/read")
	press(m, "down")
	press(m, "end")
	press(m, "left")
	typeKeys(m, "demo://a")
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	if sent := peer.After(); len(sent) != 1 || screentest.AskedProgress(t, sent[0]) != `{"uri":"demo://a"}` {
		t.Fatalf("sent %v", sent)
	}
	press(m, "esc")
	press(m, "esc")
	press(m, "esc") // closed; the history outlives the composer
	press(m, ":")
	c := composerOf(t, m)
	press(m, "tab")
	if c.picker.tab != tabHistory || len(c.picker.rows) != 1 || !strings.Contains(screenText(m), `{"uri":"demo://a"}`) {
		t.Fatalf("the history tab:\n%s", screenText(m))
	}
	press(m, "enter")
	if c.stage != stageEdit || c.call.method != mcp.MethodResourcesRead || editorJSON(t, c) != `{"uri":"demo://a"}` {
		t.Errorf("recall: %+v %s", c.call, editorJSON(t, c))
	}
}

func TestComposeEscPaths(t *testing.T) {
	m, _ := openCompose(t)
	connectFake(t, m)
	c := pick(t, m, "ping")
	press(m, "esc")
	if c.stage != stagePick || c.picker.input.Value() != "ping" {
		t.Fatalf("esc in the editor: stage %d filter %q", c.stage, c.picker.input.Value())
	}
	press(m, "enter")
	runUntilAnswer(t, m, func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }())
	press(m, "j") // scrolls, does not leave
	press(m, "esc")
	if c.stage != stageEdit || m.overlay == nil {
		t.Fatalf("esc in the answer: stage %d", c.stage)
	}
	press(m, "esc")
	press(m, "esc")
	if m.overlay != nil {
		t.Error("esc esc from the editor did not close the composer")
	}
}

func TestComposeNotConnected(t *testing.T) {
	m, _ := openCompose(t)
	c := pick(t, m, "ping")
	if cmd := func() tea.Cmd { _, cmd := m.Update(screentest.Ctrl('s')); return cmd }(); cmd != nil {
		t.Error("a command was started without a session")
	}
	if c.stage != stageAnswer || !strings.Contains(screenText(m), "ping was not sent: not connected") {
		t.Errorf("no clear error:\n%s", screenText(m))
	}
	if len(m.composed.calls) != 0 {
		t.Error("an unsent call went into the history")
	}
}
