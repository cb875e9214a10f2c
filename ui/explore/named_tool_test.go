package explore

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// On tools-ws, which has no lists, the explorer asks for none and says
// so; n takes a tool name, enter opens its tools/call form with the
// arguments as JSON, and the call goes out and is answered; the tool is
// then listed as one this connection called, and enter calls it again.
func TestExploreNamedToolOnToolsWS(t *testing.T) {
	m, r := newModel(t, 120, 30)
	m.host.Sess = screentest.ConnectDemoToolsWS(t, m.store)
	st := m.store
	r.Press("e")
	x := m.overlay.(*Explorer)
	for i := range x.lists {
		if l := &x.lists[i]; l.state != listNone || l.err != nil {
			t.Fatalf("list %d: state %d, err %v", i, l.state, l.err)
		}
	}
	s := r.ScreenText()
	if !strings.Contains(s, "tools-ws has no tools list: n calls a tool by its name") || strings.Contains(s, "failed") {
		t.Fatalf("the explorer on tools-ws:\n%s", s)
	}
	r.Until("the discovery", func() bool { return r.m.interactive.state == discoverKnown })
	if r.m.interactive.err != nil || r.m.interactive.caps.Interactive {
		t.Errorf("the discovery on tools-ws: %+v", r.m.interactive)
	}
	r.Press("n")
	r.TypeText("echo")
	r.Press("enter")
	if x.mode != modeForm || !strings.Contains(r.ScreenText(), "tools/call echo") {
		t.Fatalf("n echo enter: mode %d\n%s", x.mode, r.ScreenText())
	}
	if !x.form.EditingJSON() || !strings.Contains(r.ScreenText(), "its arguments as a JSON object") {
		t.Fatalf("the form of a named tool is not its JSON editor:\n%s", r.ScreenText())
	}
	r.Press("right")
	r.TypeText(`"message":"hi"`)
	r.Press("ctrl+s")
	r.Until("the answer", func() bool { return x.mode == modeOutcome })
	if s := r.ScreenText(); !strings.Contains(s, "tools/call echo · answer") || !strings.Contains(s, "hi") {
		t.Errorf("outcome:\n%s", s)
	}
	if got := screentest.SentRequests(st, mcp.MethodToolsCall); len(got) != 1 || !strings.Contains(string(got[0]), `"arguments":{"message":"hi"}`) {
		t.Errorf("tools/call params %s", got)
	}
	r.Press("esc")
	if got := names(&x.lists[tabTools]); len(got) != 1 || got[0] != "echo" || !strings.Contains(r.ScreenText(), "listed: the 1 tool this connection called") {
		t.Fatalf("tools after the call %v:\n%s", got, r.ScreenText())
	}
	r.Press("enter")
	if x.mode != modeForm || !x.form.EditingJSON() {
		t.Fatalf("enter on the called tool: mode %d", x.mode)
	}
	r.Press("ctrl+s")
	r.Until("the second answer", func() bool { return x.mode == modeOutcome })
	if got := screentest.SentRequests(st, mcp.MethodToolsCall); len(got) != 2 || !strings.Contains(string(got[1]), `"arguments":{"message":"hi"}`) {
		t.Errorf("the second call's params %s", got)
	}
}

// On tools-http the explorer says the same of its lists, naming it.
func TestExploreNamedToolOnToolsHTTP(t *testing.T) {
	m, r := newModel(t, 120, 30)
	m.host.Sess = screentest.ConnectDemoToolsHTTP(t, m.store)
	r.Press("e")
	if s := r.ScreenText(); !strings.Contains(s, "tools-http has no tools list: n calls a tool by its name") || strings.Contains(s, "failed") {
		t.Fatalf("the explorer on tools-http:\n%s", s)
	}
	r.Press("2")
	if s := r.ScreenText(); !strings.Contains(s, "tools-http carries tools/call only: it has no resources list") {
		t.Errorf("the Resources tab on tools-http:\n%s", s)
	}
	r.Press("1", "n")
	if x := m.overlay.(*Explorer); x.mode != modeNamePrompt || !strings.Contains(r.ScreenText(), "tool name:") {
		t.Errorf("n on tools-http: mode %d\n%s", x.mode, r.ScreenText())
	}
}

// Tools known beside a server with no tools/list (the demo's own, handed
// by the demo command) are listed, with where they come from; one with an
// inputSchema opens its form, not the JSON editor. A name only (from a
// recording) says the transport says nothing of its arguments.
func TestExploreKnownToolsOnToolsWS(t *testing.T) {
	m, r := newModel(t, 140, 30)
	m.host.Sess = screentest.ConnectDemoToolsWS(t, m.store)
	m.known = &KnownTools{From: "the demo's tools (this transport has no list)", Tools: []mcp.Tool{
		{Name: "echo", Description: "Echo a message", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
		{Name: "recorded_only"},
	}}
	r.Press("e")
	x := m.overlay.(*Explorer)
	s := r.ScreenText()
	if got := names(&x.lists[tabTools]); len(got) != 2 || got[0] != "echo" || got[1] != "recorded_only" ||
		!strings.Contains(s, "listed: the demo's tools (this transport has no list)") {
		t.Fatalf("tools %v:\n%s", got, s)
	}
	if d := x.lists[tabTools].items[1].desc; !strings.Contains(d, "tools-ws says nothing of its arguments") {
		t.Errorf("a tool known by name only: %q", d)
	}
	r.Press("enter")
	if x.mode != modeForm || x.form.EditingJSON() || !strings.Contains(r.ScreenText(), "message") {
		t.Fatalf("enter on a known tool: mode %d, JSON editor %v\n%s", x.mode, x.mode == modeForm && x.form.EditingJSON(), r.ScreenText())
	}
	if strings.Contains(r.ScreenText(), "dialect") {
		t.Errorf("the screen says dialect:\n%s", r.ScreenText())
	}
}

// The form of a tool called by name speaks of the transport, never of a
// dialect.
func TestExploreNamedFormWords(t *testing.T) {
	m, r := newModel(t, 140, 30)
	m.host.Sess = screentest.ConnectDemoToolsWS(t, m.store)
	r.Press("e", "n")
	r.TypeText("echo")
	r.Press("enter")
	if s := r.ScreenText(); strings.Contains(s, "dialect") || !strings.Contains(s, "this transport says nothing of them") {
		t.Errorf("the named form:\n%s", s)
	}
}
