package explore

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestWizardPlainToolByList: the demo's tool list marks its wizards, so
// they are tagged before anything is tried, echo is known to be plain and
// enter opens its form at once: no interaction.start goes out, no -32007 refusal is
// logged; book_trip is tagged a wizard.
func TestWizardPlainToolByList(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return r.m.interactive.state == discoverKnown })
	run := map[string]toolRun{}
	for _, e := range x.lists[tabTools].items {
		run[e.name] = e.run
	}
	if run["echo"] != toolListed || run["analyze"] != toolListed || run["book_trip"] != toolWizard {
		t.Fatalf("tags before anything is tried: %v", run)
	}
	if s := r.ScreenText(); !strings.Contains(s, "[wizard]") || strings.Contains(s, "[tools/call only]") {
		t.Errorf("only the wizards are tagged:\n%s", s)
	}
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "enter")
	if x.mode != modeForm || !strings.Contains(r.ScreenText(), "tools/call echo") {
		t.Fatalf("enter on echo: mode %d\n%s", x.mode, r.ScreenText())
	}
	if n := len(screentest.SentRequests(st, mcp.MethodInteractionStart)); n != 0 {
		t.Errorf("%d interaction.start sent for a tool the list says is plain", n)
	}
}

// TestWizardNotInteractiveTool: on a list that marks no wizard, enter on
// echo tries one; the demo refuses with -32007, and the explorer opens
// its tools/call form instead, then goes straight to the form for it.
func TestWizardNotInteractiveTool(t *testing.T) {
	m, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return r.m.interactive.state == discoverKnown })
	unmarked := json.RawMessage(`{"name":"echo","description":"Answer the message","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}`)
	m.Update(exploreListMsg{gen: x.listGen, tab: tabTools, items: []json.RawMessage{unmarked}})
	if e, _ := x.list().selected(); e.name != "echo" || e.run != toolTry || strings.Contains(r.ScreenText(), "[wizard]") {
		t.Fatalf("echo before anything is known is tagged: %+v\n%s", e, r.ScreenText())
	}
	r.Press("enter")
	r.Until("the form", func() bool { return x.mode == modeForm })
	if s := r.ScreenText(); !strings.Contains(s, "echo runs as a plain tool call (the server answered error -32007 NOT_INTERACTIVE") || !strings.Contains(s, "tools/call echo") {
		t.Errorf("the fallback form:\n%s", s)
	}
	if x.note != "" {
		t.Errorf("the fallback form carries a problem note: %q", x.note)
	}
	r.Press("esc")
	if e, _ := x.list().selected(); e.run != toolCallOnly || !strings.Contains(r.ScreenText(), "[tools/call only]") {
		t.Errorf("echo after the refusal: %+v", e)
	}
	r.Press("enter")
	if x.mode != modeForm || len(screentest.SentRequests(st, mcp.MethodInteractionStart)) != 1 {
		t.Errorf("enter again: mode %d, %d starts", x.mode, len(screentest.SentRequests(st, mcp.MethodInteractionStart)))
	}
}

// TestExploreRunsWizards: enter on book_trip opens its wizard in the
// explorer; esc then y cancels the session, and esc returns to the list
// with the explorer still open.
func TestExploreRunsWizards(t *testing.T) {
	m, r, st := demoModel(t)
	x := openToolWizard(t, r, "book_trip", "Where do you want to go?")
	if x.mode != modeWizard || len(screentest.SentRequests(st, mcp.MethodInteractionStart)) != 1 {
		t.Fatalf("enter on book_trip: mode %d, starts %d", x.mode, len(screentest.SentRequests(st, mcp.MethodInteractionStart)))
	}
	r.Press("esc", "y") // esc asks, y confirms
	r.Until("the server's answer", func() bool { return strings.Contains(r.ScreenText(), "the server confirmed: cancelled") })
	r.Press("esc")
	if x.mode != modeList || x.wiz != nil || m.overlay == nil {
		t.Errorf("esc after the cancel: mode %d, overlay %v", x.mode, m.overlay)
	}
	if e, _ := x.list().selected(); e.name != "book_trip" || e.run != toolWizard {
		t.Errorf("book_trip after its wizard started is not tagged a wizard: %+v", e)
	}
}

// TestWizardDegrade: a server that is not interactive (`capabilities` →
// -32601) keeps the explorer as it was: no wizard tags, enter opens the
// tools/call form, no interaction.start; the discovery is not asked again
// on the same connection.
func TestWizardDegrade(t *testing.T) {
	m, r, p := scriptedModel(t, false)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return m.interactive.state == discoverKnown })
	if m.interactive.caps.Interactive || m.interactive.err != nil || len(p.Sent(mcp.MethodCapabilities)) != 1 {
		t.Fatalf("discovery %+v, %d capabilities requests", m.interactive, len(p.Sent(mcp.MethodCapabilities)))
	}
	s := r.ScreenText()
	if strings.Contains(s, "wizard") || strings.Contains(s, "interactive server") {
		t.Errorf("a server that is not interactive has wizards:\n%s", s)
	}
	r.Press("enter")
	if x.mode != modeForm || !strings.Contains(r.ScreenText(), "tools/call greet") {
		t.Fatalf("enter on greet: mode %d\n%s", x.mode, r.ScreenText())
	}
	r.Press("esc", "esc")
	r.Press("e")
	r.Until("the lists again", func() bool { return m.overlay.(*Explorer).lists[tabTools].state == listLoaded })
	if n := len(p.Sent(mcp.MethodCapabilities)); n != 1 || len(p.Sent(mcp.MethodInteractionStart)) != 0 {
		t.Errorf("%d capabilities requests, %d starts", n, len(p.Sent(mcp.MethodInteractionStart)))
	}
}

// TestExploreWizardEscWhileStarting: esc while interaction.start is in
// flight closes the explorer's wizard, back to the list, and tells the
// server the client stopped waiting.
func TestExploreWizardEscWhileStarting(t *testing.T) {
	_, r, p := scriptedModel(t, true)
	p.SetHoldStart(true)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return r.m.interactive.state == discoverKnown })
	r.Press("enter")
	if x.mode != modeWizard || !strings.Contains(r.ScreenText(), "interaction.start sent, waiting for the session") {
		t.Fatalf("enter on greet: mode %d\n%s", x.mode, r.ScreenText())
	}
	screentest.WaitFor(t, "the start on the wire", func() bool { return len(p.Sent(mcp.MethodInteractionStart)) == 1 })
	r.Press("esc")
	if x.mode != modeList || x.wiz != nil {
		t.Fatalf("esc while starting: mode %d", x.mode)
	}
	start := p.Sent(mcp.MethodInteractionStart)[0]
	screentest.WaitFor(t, "notifications/cancelled", func() bool { return len(p.Sent(mcp.MethodNotifyCancelled)) == 1 })
	var c mcp.CancelledNotificationParams
	if err := json.Unmarshal(p.Sent(mcp.MethodNotifyCancelled)[0].Params, &c); err != nil || c.RequestID.Key() != start.ID.Key() {
		t.Errorf("notifications/cancelled %+v for interaction.start id %s", c, start.ID)
	}
}

// TestWizardDiscoveryError: a `capabilities` request that fails with
// anything but -32601 or -32007 is shown on the tools list, whose tools
// keep their form.
func TestWizardDiscoveryError(t *testing.T) {
	m, r, p := scriptedModel(t, false)
	p.SetCapsCode(mcp.CodeInternalError)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return m.interactive.state == discoverKnown })
	if s := r.ScreenText(); !strings.Contains(s, "capabilities probe refused (error -32603 Internal error: capabilities") {
		t.Errorf("list head:\n%s", s)
	}
	r.Press("enter")
	if x.mode != modeForm {
		t.Errorf("enter: mode %d", x.mode)
	}
}

// TestGoldenWizardTools draws the explorer's tools of an interactive
// server: untagged before anything is known, tagged wizard once the
// server started one, tools/call only once it refused one.
func TestGoldenWizardTools(t *testing.T) {
	m, r, _ := scriptedModel(t, true)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return m.interactive.state == discoverKnown })
	goldentest.CheckPlain(t, "wizard_tools_unknown", x.Render(100, 4))
	x.markInteractive("greet")
	x.markWizards()
	goldentest.CheckPlain(t, "wizard_tools", x.Render(100, 4))
	x.disc.interactiveTools = nil
	x.markNotInteractive("greet")
	x.markWizards()
	goldentest.CheckPlain(t, "wizard_tools_call_only", x.Render(100, 4))
}

// openToolWizard opens the explorer, waits for its lists and the
// discovery, selects tool and presses enter: it returns the explorer once
// its wizard shows the first prompt, whose message holds prompt. The
// wizard's clock is fixed at t0.
func openToolWizard(t *testing.T, r *cmdRunner, tool, prompt string) *Explorer {
	t.Helper()
	x := openExplorerLoaded(t, r)
	r.Until("the discovery of interactive sessions", func() bool { return r.m.interactive.state == discoverKnown })
	r.Press("/")
	r.TypeText(tool)
	r.Press("enter", "enter")
	if x.wiz == nil {
		t.Fatalf("enter on %s opened no wizard (mode %d):\n%s", tool, x.mode, r.ScreenText())
	}
	x.wiz.SetClock(func() time.Time { return screentest.T0 })
	r.Until("the first prompt", func() bool { return strings.Contains(r.ScreenText(), prompt) })
	return x
}
