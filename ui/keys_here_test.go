package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// On a server that is not the demo, R, a and o send nothing (a server's
// own read_file is never called by a key the user did not pick): the
// status line says why, and neither the help nor the hint bar lists them.
// Connected to the demo, they send its tools.
func TestDemoKeysOnlyOnTheDemo(t *testing.T) {
	m := connectedModel(t)
	before := m.cfg.Store.Len()
	for _, k := range []string{"R", "a", "o"} {
		m.status = statusLine{}
		if cmd := press(m, k); cmd != nil {
			t.Errorf("%s on a server that is not the demo sent a request", k)
		}
		if !strings.Contains(m.status.err, k+": the demo's") || !strings.Contains(m.status.err, "only under `mcpscope demo`") {
			t.Errorf("%s: status %q, want why it does nothing here", k, m.status.err)
		}
	}
	if n := m.cfg.Store.Len(); n != before {
		t.Errorf("%d frames went out for the demo keys, want none", n-before)
	}
	press(m, "?")
	help := screenText(m)
	for _, gone := range []string{"read_file", "analyze", "tone (audio)"} {
		if strings.Contains(help, gone) {
			t.Errorf("the help of a server that is not the demo lists %q:\n%s", gone, help)
		}
	}
	wantAll(t, "the help", help, "tools/list", "reconnect")
	press(m, "?")

	m.cfg.Demo = true
	press(m, "?")
	wantAll(t, "the demo's help", screenText(m), "read_file 1 MiB", "analyze", "tone (audio)")
	press(m, "?")
	if cmd := press(m, "R"); cmd == nil {
		t.Errorf("R on the demo sent nothing; status %q", m.status.err)
	}
}

// On a dialect with no tools/list (tools-http), t says why it sends
// nothing and the help leaves it out.
func TestToolsListKeyNeedsAList(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 120, 30)
	tr, err := mcphttp.New(mcphttp.Config{URL: "http://127.0.0.1:9/mcp", Mode: mcphttp.ModeTools})
	if err != nil {
		t.Fatal(err)
	}
	m.conn = connection{link: Link{Transport: tr, Session: client.New(tr, client.Options{})}, gen: 1, ready: true}
	if cmd := press(m, "t"); cmd != nil || !strings.Contains(m.status.err, "t: tools-http has no tools/list · e calls a tool by name") {
		t.Errorf("t on tools-http: cmd %v, status %q", cmd != nil, m.status.err)
	}
	press(m, "?")
	help := screenText(m)
	help = help[:strings.LastIndex(help, "\n")] // the status line still says why
	if strings.Contains(help, "tools/list") {
		t.Errorf("the help on tools-http lists tools/list:\n%s", help)
	}
}

// The hint bar names the digits of the panes the connection has, and the
// roots editor's key leaves the help when --answers answers the roots.
func TestHintsNameOnlyThePanesThereAre(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 200, 30)
	wantAll(t, "the hint bar with every pane", hintLine(m), "1-6 pane")
	m.setPanes(panesFor(mcp.DialectMCP))
	h := hintLine(m)
	wantAll(t, "the hint bar on stdio", h, "1,4-6 pane")
	if strings.Contains(h, "1-6") {
		t.Errorf("the hint bar on stdio names six panes: %q", h)
	}
	m.setPanes(panesFor(mcp.DialectMCPFlow))
	wantAll(t, "the hint bar on MCP-Flow", hintLine(m), "1-5 pane")
	press(m, "?")
	if strings.Contains(screenText(m), "edit roots") {
		t.Error("the help lists ctrl+r, which the --answers file overrides here")
	}
}

// [ and ] outside the hex pane, l with no frame selected, and a typed
// key no pane takes say why they do nothing.
func TestIdleKeysSayWhy(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 120, 30)
	press(m, "]")
	if !strings.Contains(m.status.err, "hex pane") {
		t.Errorf("] on the traffic pane: status %q", m.status.err)
	}
	press(m, "z")
	if !strings.Contains(m.status.err, "z is not a key of the panes: ? lists them") {
		t.Errorf("z: status %q", m.status.err)
	}
	e := newTestModel(t, nil, 120, 30)
	press(e, "l")
	if !strings.Contains(e.status.err, "l: no frame is selected") {
		t.Errorf("l with no frame: status %q", e.status.err)
	}
}

// A replay's hint bar lists B and E, the way to its start and its end,
// at 80 columns too.
func TestReplayHintsListStartAndEnd(t *testing.T) {
	_, path := recordSample(t, "wt")
	r := newTestReplay(t, path, recordings.SpeedAtOnce, 80, 24)
	wantAll(t, "the replay's hint bar", hintLine(r.inner), "B start", "E end", "q quit")
}

// / in the traffic pane starts a new filter; the one in force stays until
// enter, and esc keeps it.
func TestSlashStartsANewFilter(t *testing.T) {
	m := newTestModel(t, filterClearStore(t), 140, 40)
	filterBy(m, "tools/list")
	press(m, "/")
	if v := m.input.Value(); v != "" {
		t.Fatalf("/ with a filter in force opened %q, want a new, empty filter", v)
	}
	press(m, "esc")
	if m.filterText() != "tools/list" {
		t.Fatalf("esc in the new filter dropped the one in force: %q", m.filterText())
	}
	filterBy(m, "initialize")
	if m.filterText() != "initialize" {
		t.Errorf("the filter typed after / is %q, want initialize", m.filterText())
	}
}
