package ui

import (
	"encoding/json"
	"strconv"
	"strings"
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

// TestLogViewFloodThroughIndex: 100,000 notifications/message captured
// reach the Log view through the index (which, in a flood, may skip some
// it cannot read in time); the view holds the newest 10,000 and says how
// many older ones it dropped, the newest at the bottom.
func TestLogViewFloodThroughIndex(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	m := newTestModel(t, st, 120, 30)
	const n = 100_000
	for i := 1; i <= n; i++ {
		p, _ := json.Marshal(mcp.LoggingMessageParams{Level: "info", Logger: "flood", Data: json.RawMessage(strconv.Itoa(i))})
		msg := &jsonrpc.Message{JSONRPC: jsonrpc.Version, Method: mcp.MethodNotifyMessage, Params: p}
		raw, _ := msg.EncodeJSON()
		st.Append(&capture.Frame{Time: t0, Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Control}, Raw: raw, Size: len(raw), Msg: msg})
	}
	m.Update(refreshMsg{at: t0})
	press(m, "L")
	s := screenText(m)
	if b := m.idx.views.logs; b.Len() != 10000 || b.At(b.Len()-1).Seq != st.Stats().LastSeq {
		t.Errorf("the book holds %d lines, the last of seq %d", b.Len(), b.At(b.Len()-1).Seq)
	}
	if !strings.Contains(s, "10000 lines (") || !strings.Contains(s, " older dropped)") || !strings.Contains(s, "[flood] 100000") {
		t.Fatalf("the Log view after the flood:\n%s", s)
	}
}
