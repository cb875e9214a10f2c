package ui

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
	"github.com/mcpscope/mcpscope/ui/subsview"
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
// logging/setLevel after a 2025-11-25 connect; the session's level is set
// once the server agrees, and a refusal leaves it unset.
func TestAskLogLevelAtConnect(t *testing.T) {
	m := connectedModel(t) // the server holds its answers: the test gives them
	f := m.conn.link.Transport.(*screentest.FakePeer)
	m.cfg.LogLevel = "notice"
	s := m.conn.link.Session
	ask := func(answer func(id jsonrpc.ID) *jsonrpc.Message) screen.CallDoneMsg {
		cmd := m.askLogLevel(s)
		if cmd == nil {
			t.Fatal("no logging/setLevel sent")
		}
		before := len(f.After())
		done := make(chan tea.Msg, 1)
		go func() { done <- cmd() }()
		var req *jsonrpc.Message
		screentest.WaitFor(t, "logging/setLevel on the wire", func() bool {
			if sent := f.After(); len(sent) > before {
				req = sent[before]
			}
			return req != nil
		})
		if req.Method != mcp.MethodLoggingSetLevel || !strings.Contains(string(req.Params), `"notice"`) {
			t.Fatalf("sent %s %s", req.Method, req.Params)
		}
		if s.LogLevel() != "" {
			t.Fatalf("the level is %q before the server answered", s.LogLevel())
		}
		f.Deliver(answer(*req.ID))
		select {
		case msg := <-done:
			return msg.(screen.CallDoneMsg)
		case <-time.After(guard.Hang):
			t.Fatal("logging/setLevel not done after its answer")
		}
		return screen.CallDoneMsg{}
	}
	refused := ask(func(id jsonrpc.ID) *jsonrpc.Message {
		return jsonrpc.NewErrorResponse(id, mcp.CodeMethodNotFound, "no logging here", nil)
	})
	if refused.Err == nil || s.LogLevel() != "" {
		t.Fatalf("after a refusal: err %v, the session's level %q", refused.Err, s.LogLevel())
	}
	agreed := ask(func(id jsonrpc.ID) *jsonrpc.Message {
		m, _ := jsonrpc.NewResult(id, map[string]any{})
		return m
	})
	if agreed.Err != nil || s.LogLevel() != "notice" {
		t.Errorf("after the server agreed: err %v, the session's level %q", agreed.Err, s.LogLevel())
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
	refreshWhole(m, t0)
	press(m, "L")
	s := screenText(m)
	if b := m.idx.views.logs; b.Len() != 10000 || b.At(b.Len()-1).Seq != st.Stats().LastSeq {
		t.Errorf("the book holds %d lines, the last of seq %d", b.Len(), b.At(b.Len()-1).Seq)
	}
	if !strings.Contains(s, "10000 lines (") || !strings.Contains(s, " older dropped)") || !strings.Contains(s, "[flood] 100000") {
		t.Fatalf("the Log view after the flood:\n%s", s)
	}
}

// TestFilterURIWithSpaces: "uri:" takes the rest of the filter, so the
// Subscriptions view's `l` filter of a URI holding spaces lets its
// updates through; a 2026-07-28 listen and its acknowledgement, which
// name the URI among notifications.resourceSubscriptions, pass too.
func TestFilterURIWithSpaces(t *testing.T) {
	const uri = "file:///My Documents/notes.txt"
	frame := func(method, params string) *capture.Frame {
		return &capture.Frame{Dir: capture.In, Msg: &jsonrpc.Message{Method: method, Params: json.RawMessage(params)}}
	}
	listen := `{"notifications":{"resourceSubscriptions":["demo://other","file:///My Documents/notes.txt"]},"_meta":{}}`
	for _, c := range []struct {
		filter string
		f      *capture.Frame
		want   bool
	}{
		{subsview.UpdatesFilter(uri), frame(mcp.MethodNotifyResourceUpdated, `{"uri":"file:///My Documents/notes.txt"}`), true},
		{subsview.UpdatesFilter(uri), frame(mcp.MethodNotifyResourceUpdated, `{"uri":"file:///My"}`), false},
		{"uri:" + uri + "  ", frame(mcp.MethodSubscriptionsListen, listen), true},
		{"uri:" + uri, frame(mcp.MethodNotifySubscriptionsAck, listen), true},
		{"uri:demo://third", frame(mcp.MethodSubscriptionsListen, listen), false},
	} {
		if got := parseFilter(c.filter).match(c.f, newIndex()); got != c.want {
			t.Errorf("filter %q on %s %s: match %v, want %v", c.filter, c.f.Msg.Method, c.f.Msg.Params, got, c.want)
		}
	}
}
