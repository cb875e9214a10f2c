package ui

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestFilterURI: "uri:URI" lets through the messages whose params name
// the resource, whatever their method, and only those; the URI keeps its
// case.
func TestFilterURI(t *testing.T) {
	frame := func(method, uri string) *capture.Frame {
		p, _ := json.Marshal(map[string]string{"uri": uri})
		return &capture.Frame{Dir: capture.In, Msg: &jsonrpc.Message{Method: method, Params: p}}
	}
	x := newIndex()
	fl := parseFilter("resources/updated uri:demo://Doc")
	for _, c := range []struct {
		f    *capture.Frame
		want bool
	}{
		{frame(mcp.MethodNotifyResourceUpdated, "demo://Doc"), true},
		{frame(mcp.MethodNotifyResourceUpdated, "demo://doc"), false},
		{frame(mcp.MethodNotifyResourceUpdated, "demo://Doc/2"), false},
		{frame(mcp.MethodResourcesRead, "demo://Doc"), false},
		{&capture.Frame{Dir: capture.In, Msg: &jsonrpc.Message{Method: mcp.MethodNotifyResourceUpdated}}, false},
	} {
		if got := fl.match(c.f, x); got != c.want {
			t.Errorf("%s %s: match %v, want %v", c.f.Msg.Method, c.f.Msg.Params, got, c.want)
		}
	}
}

// TestAskLogLevelAtConnect: Config.LogLevel (--log-level) sends
// logging/setLevel after a 2025-11-25 connect and sets the session's
// level.
func TestAskLogLevelAtConnect(t *testing.T) {
	m := connectedModel(t)
	m.cfg.LogLevel = "notice"
	s := m.conn.link.Session
	cmd := m.askLogLevel(s)
	if cmd == nil {
		t.Fatal("no logging/setLevel sent")
	}
	screentest.RunInBackground(cmd)
	screentest.WaitFor(t, "logging/setLevel on the wire", func() bool {
		st := m.cfg.Store.Stats()
		for _, f := range m.cfg.Store.Window(st.FirstSeq, m.cfg.Store.Len()) {
			var p mcp.SetLevelParams
			if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method == mcp.MethodLoggingSetLevel && json.Unmarshal(f.Msg.Params, &p) == nil && p.Level == "notice" {
				return true
			}
		}
		return false
	})
	if s.LogLevel() != "notice" {
		t.Errorf("the session's level is %q", s.LogLevel())
	}
	m.cfg.LogLevel = ""
	if m.askLogLevel(s) != nil {
		t.Error("a request with no --log-level")
	}
}
