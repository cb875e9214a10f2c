package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// flowPeer is a fake peer whose link says it speaks MCP-Flow.
type flowPeer struct{ *screentest.FakePeer }

// LinkState reports MCP-Flow.
func (flowPeer) LinkState() client.LinkState {
	return client.LinkState{Dialect: mcp.DialectMCPFlow, Encoding: "cbor"}
}

// Describe declares the MCP-Flow link.
func (p flowPeer) Describe() client.Traits { return client.Traits{Link: p.LinkState} }

// dialedModel returns a model of the sample store, sized w×h, that has
// dialed a fake peer (reporting MCP-Flow when flow is set, else plain MCP
// as stdio does); the peer's own frames go to a store of their own.
func dialedModel(t *testing.T, flow bool, w, h int) *Model {
	t.Helper()
	f, s := screentest.Connect(t, capture.NewStore(capture.Config{}))
	var tr client.Transport = f
	if flow {
		tr = flowPeer{f}
	}
	m := New(Config{Store: sampleStore(t), Target: "demo", Dial: func(capture.Sink) (Link, error) {
		return Link{Transport: tr, Session: s}, nil
	}})
	t.Cleanup(func() { _ = m.Close() })
	m.Init() // dials; the connect itself is not run
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(refreshMsg{at: t0})
	return m
}

// focusCycle presses key from the traffic pane until the focus is back
// and returns the panes it visited.
func focusCycle(t *testing.T, m *Model, key string) []string {
	t.Helper()
	m.setFocus(paneTraffic)
	var seen []string
	for range paneCount + 1 {
		press(m, key)
		seen = append(seen, paneNames[m.focus])
		if m.focus == paneTraffic {
			return seen
		}
	}
	t.Fatalf("%s never came back to traffic: %v", key, seen)
	return nil
}

func TestStdioScreenHasNoStreamsOrDatagrams(t *testing.T) {
	m := dialedModel(t, false, 140, 36)
	screen := screenText(m)
	golden(t, "screen_stdio", m.View().Content)
	tabs := strings.SplitN(screen, "\n", 2)[0]
	for _, gone := range []string{"Streams", "Datagrams", "no execution streams", "no datagrams"} {
		if strings.Contains(screen, gone) {
			t.Errorf("a stdio screen shows %q:\n%s", gone, screen)
		}
	}
	if !strings.Contains(tabs, "Stderr") {
		t.Errorf("the tab bar of a stdio screen has no Stderr: %q", tabs)
	}
	if a := m.layout.area[paneTraffic]; a.h != 36-chromeLines {
		t.Errorf("traffic is %d lines high, want the whole left column (%d)", a.h, 36-chromeLines)
	}
	if got := strings.Join(focusCycle(t, m, "tab"), " "); got != "Detail Hex Stderr Traffic" {
		t.Errorf("tab visits %s", got)
	}
	if got := strings.Join(focusCycle(t, m, "shift+tab"), " "); got != "Stderr Hex Detail Traffic" {
		t.Errorf("shift+tab visits %s", got)
	}
}

func TestFlowScreenKeepsStreamsAndDatagrams(t *testing.T) {
	m := dialedModel(t, true, 140, 36)
	screen := screenText(m)
	golden(t, "screen_flow", m.View().Content)
	tabs := strings.SplitN(screen, "\n", 2)[0]
	if strings.Contains(tabs, "Stderr") {
		t.Errorf("the tab bar of an MCP-Flow screen has a Stderr tab: %q", tabs)
	}
	for _, kept := range []string{"Execution streams", "Datagrams"} {
		if !strings.Contains(screen, kept) {
			t.Errorf("an MCP-Flow screen lacks %q:\n%s", kept, screen)
		}
	}
	if got := strings.Join(focusCycle(t, m, "tab"), " "); got != "Streams Datagrams Detail Hex Traffic" {
		t.Errorf("tab visits %s", got)
	}
}

func TestReplayKeepsEveryPane(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 36)
	if got := strings.Join(focusCycle(t, m, "tab"), " "); got != "Streams Datagrams Detail Hex Stderr Traffic" {
		t.Errorf("tab visits %s", got)
	}
}

// TestAbsentPaneTakesNoFocus: a click or key aimed at a pane this link
// does not have leaves the focus on traffic.
func TestAbsentPaneTakesNoFocus(t *testing.T) {
	m := dialedModel(t, false, 80, 24)
	m.setFocus(paneStreams)
	if m.focus != paneTraffic {
		t.Errorf("focus went to %s", paneNames[m.focus])
	}
	m = dialedModel(t, true, 80, 24)
	press(m, "tab")
	press(m, "tab") // datagrams, shown alone as a tab
	if !strings.Contains(screenText(m), "Datagrams") {
		t.Errorf("the datagrams tab is not drawn:\n%s", screenText(m))
	}
}

// A server reached over the network has no stderr; the gateway's streams
// and HTTP's SSE streams have the streams pane; stdio keeps its stderr.
func TestPanesOfNetworkLinks(t *testing.T) {
	for _, tc := range []struct {
		state           client.LinkState
		streams, stderr bool
	}{
		{client.LinkState{Dialect: mcp.DialectMCP}, false, true},
		{client.LinkState{Dialect: mcp.DialectMCP, Transport: "Streamable HTTP"}, true, false},
		{client.LinkState{Dialect: mcp.DialectMCP, Transport: "WebSocket (mcp)"}, false, false},
		{client.LinkState{Dialect: mcp.DialectMCP, Transport: "gateway"}, true, false},
		{client.LinkState{Dialect: mcp.DialectMCP, Transport: "gateway (mcp)"}, true, false},
	} {
		s := panesOf(tc.state)
		if s[paneStreams] != tc.streams || s[paneStderr] != tc.stderr {
			t.Errorf("%q: streams %v stderr %v, want %v %v", tc.state.Transport, s[paneStreams], s[paneStderr], tc.streams, tc.stderr)
		}
	}
}
