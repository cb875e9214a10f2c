package ui

import (
	"fmt"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestHostProgress checks the screens' view of one request's progress:
// MCP-Flow datagrams with their log lines, MCP notifications with the
// progress after a cancel, nothing for a request not captured or of an
// older connection.
func TestHostProgress(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.conn.gen = 1
	h := driver{m}
	s, ok := h.Progress(jsonrpc.IntID(3))
	if !ok || s.Method != "tools/call analyze" || s.Reports != 1 || s.Progress != 2 || s.Total != 5 || s.Message != "step 2/5" ||
		!s.Cancelled || !s.Answered || s.Elapsed != 35*time.Millisecond || !s.Sent.Equal(t0.Add(45*time.Millisecond)) {
		t.Errorf("analyze: %+v %v", s, ok)
	}
	if want := []string{"info analyze step 2/5", `warning analyze {"slow":true}`}; !slices.Equal(s.Logs, want) {
		t.Errorf("logs %q, want %q", s.Logs, want)
	}
	if s, ok := h.Progress(jsonrpc.IntID(2)); !ok || s.Reports != 0 || s.Cancelled || !s.Answered || s.Elapsed != 15*time.Millisecond {
		t.Errorf("read_file: %+v %v", s, ok)
	}
	if _, ok := h.Progress(jsonrpc.IntID(99)); ok {
		t.Error("a request never sent has progress")
	}
	m.conn.gen = 2
	if _, ok := h.Progress(jsonrpc.IntID(3)); ok {
		t.Error("the request of the first connection shows on the second")
	}

	m = newTestModel(t, cancelStore(t), 140, 30)
	m.conn.gen = 1
	h = driver{m}
	s, ok = h.Progress(jsonrpc.IntID(5))
	if !ok || !s.Cancelled || s.Answered || s.AfterCancel != 1 || s.Progress != 2 || s.Message != "step 2" || s.Elapsed != 10*time.Millisecond || s.Logs != nil {
		t.Errorf("the cancelled MCP call: %+v %v", s, ok)
	}
	if _, ok := h.Progress(jsonrpc.IntID(8)); ok {
		t.Error("the server's request 8 reads as the UI's")
	}
}

// TestHostProgressRuns checks the elapsed time of a request in flight
// runs with the refreshes of a live connection.
func TestHostProgressRuns(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	st.Append(controlFrame(t, capture.Out, t0, proto.EncJSON, request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "slow"})))
	m := New(Config{Store: st, Dial: func(capture.Sink) (Link, error) { return Link{}, errNoLink }})
	t.Cleanup(func() { _ = m.Close() })
	m.conn.gen = 1
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(refreshMsg{at: t0.Add(3 * time.Second)})
	h := driver{m}
	if s, ok := h.Progress(jsonrpc.IntID(1)); !ok || s.Elapsed != 3*time.Second || s.Answered {
		t.Errorf("%+v %v", s, ok)
	}
}

// errNoLink is what the dialer of a test without a server returns.
var errNoLink = fmt.Errorf("no server in this test")

// TestConnGen checks the link generation is read from a connection name.
func TestConnGen(t *testing.T) {
	for conn, want := range map[string]int{"wt": 1, "stdio#2": 2, "wt#12": 12, "a#b": 1, "x#1": 1, "#": 1, "": 1} {
		if got := connGen(conn); got != want {
			t.Errorf("connGen(%q) = %d, want %d", conn, got, want)
		}
	}
}
