package demo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// initialize accepts a known legacy version and answers the newest legacy
// one otherwise (the demo speaks the legacy era).
func TestInitializeVersion(t *testing.T) {
	s := newTestServer(t)
	for offered, want := range map[string]string{
		"2024-11-05": "2024-11-05", "2025-06-18": "2025-06-18", "2026-07-28": mcp.LatestLegacy, "1999-01-01": mcp.LatestLegacy, "": mcp.LatestLegacy,
	} {
		res, rerr := s.Initialize(json.RawMessage(`{"protocolVersion":"` + offered + `"}`))
		if rerr != nil || res.ProtocolVersion != want || res.ServerInfo.Name != Name || res.Capabilities.Tools == nil {
			t.Errorf("offered %q: %+v %v", offered, res, rerr)
		}
	}
}

// Every method outside the demo's list is -32601, server/discover included;
// notifications and responses get no answer.
func TestDispatch(t *testing.T) {
	s := newTestServer(t)
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, "server/discover", map[string]any{}))
	c.Handle(request(t, 2, "resources/subscribe", map[string]any{}))
	c.Handle(request(t, 3, "ping", nil))
	c.Handle(request(t, 4, "resources/read", map[string]any{"uri": "template://makefile/go/cli"}))
	c.Handle(request(t, 5, "resources/read", map[string]any{"uri": "template://nope/x/y"}))
	c.Handle(request(t, 6, "prompts/get", map[string]any{"name": "review_template", "arguments": map[string]string{"uri": "template://readme/go/cli"}}))
	c.Handle(request(t, 7, "tools/call", map[string]any{"name": "no_such_tool"}))
	c.Handle(&jsonrpc.Message{JSONRPC: "2.0", Method: "notifications/initialized"})
	want := map[int64]int{1: -32601, 2: -32601, 3: 0, 4: 0, 5: -32002, 6: 0, 7: -32602}
	for id, code := range want {
		if got := rpcCode(r.response(t, id)); got != code {
			t.Errorf("request %d: code %d, want %d", id, got, code)
		}
	}
	if res := string(r.response(t, 4).Result); !strings.Contains(res, "go build") {
		t.Errorf("resources/read: %s", res)
	}
	c.Handle(request(t, 8, "prompts/list", nil))
	c.Handle(request(t, 9, "resources/list", nil))
	if !strings.Contains(string(r.response(t, 8).Result), "plan_scaffold") || !strings.Contains(string(r.response(t, 9).Result), "template://makefile/rust/cli") {
		t.Error("prompts/list or resources/list lack entries")
	}
	if len(r.msgs) != 9 {
		t.Errorf("%d messages sent, want 9", len(r.msgs))
	}
}

// $/cancel is answered -32000 "Cancelled"; notifications/cancelled aborts
// without an answer (as MCP says). Either way the call ends.
func TestCancellation(t *testing.T) {
	s := newTestServer(t)
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	long := map[string]any{"name": "analyze", "arguments": map[string]any{"steps": 100000, "interval_ms": 1000}}
	c.Handle(request(t, 1, "tools/call", long))
	c.Handle(request(t, 2, "tools/call", long))
	if !c.InFlight(jsonrpc.IntID(1)) || !c.InFlight(jsonrpc.IntID(2)) {
		t.Fatal("calls are not in flight")
	}
	cancel := func(method string, id int64) {
		m, _ := jsonrpc.NewNotification(method, map[string]any{"requestId": id, "reason": "test"})
		c.Handle(m)
	}
	cancel(flow.MethodFlowCancel, 1)
	cancel(mcp.MethodNotifyCancelled, 2)
	if m := r.response(t, 1); rpcCode(m) != CodeCancelled || m.Error.Message != "Cancelled" {
		t.Errorf("$/cancel: %+v", m.Error)
	}
	ctx, done := context.WithTimeout(context.Background(), guard.Hang)
	defer done()
	if err := c.Drain(ctx); err != nil {
		t.Fatalf("the cancelled calls did not end within %s: %v", guard.Hang, err)
	}
	if n := r.responses(jsonrpc.IntID(2)); n != 0 {
		t.Errorf("notifications/cancelled was answered %d times", n)
	}
}

// logging/setLevel drops lines below the level; progress goes on.
func TestLogLevelFilter(t *testing.T) {
	s := newTestServer(t)
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, "logging/setLevel", map[string]any{"level": "warning"}))
	c.Handle(request(t, 2, "logging/setLevel", map[string]any{"level": "loud"}))
	c.Handle(request(t, 3, "tools/call", map[string]any{"name": "analyze", "arguments": map[string]any{"steps": 3, "interval_ms": 0}}))
	if rpcCode(r.response(t, 1)) != 0 || rpcCode(r.response(t, 2)) != mcp.CodeInvalidParams || rpcCode(r.response(t, 3)) != 0 {
		t.Fatal("unexpected answers")
	}
	if len(r.logs) != 0 || len(r.progs) != 3 {
		t.Errorf("logs %v, progress %v", r.logs, r.progs)
	}
}

// echo, tone without datagrams (an inline WAV clip) and argument errors.
func TestBasicTools(t *testing.T) {
	s := newTestServer(t)
	if m := callTool(t, s, "echo", map[string]any{"message": "hé"}); !strings.Contains(string(m.Result), `"text":"hé"`) {
		t.Errorf("echo: %s", m.Result)
	}
	m := callTool(t, s, "tone", map[string]any{"duration_ms": 100})
	var res struct {
		Content []struct{ Type, MimeType, Data string } `json:"content"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil || len(res.Content) != 2 || res.Content[1].Type != "audio" || res.Content[1].MimeType != "audio/wav" {
		t.Fatalf("tone: %s", m.Result)
	}
	for _, bad := range []struct {
		tool string
		args any
	}{
		{"echo", map[string]any{}}, {"echo", map[string]any{"message": 3}}, {"analyze", map[string]any{"steps": 0}},
		{"tone", map[string]any{"freq_hz": -1}}, {"tone", map[string]any{"duration_ms": 20000}},
		{"misbehave", map[string]any{"mode": "explode"}}, {"misbehave", map[string]any{"mode": "drop"}},
		{"misbehave", map[string]any{"mode": "stream_error"}}, {"read_file", map[string]any{"size": -1}},
		{"read_file", map[string]any{"path": "a", "size": 1}}, {"read_file", map[string]any{"size": 1, "order": "sideways"}},
	} {
		if m := callTool(t, s, bad.tool, bad.args); rpcCode(m) != mcp.CodeInvalidParams {
			t.Errorf("%s %v: %s %+v", bad.tool, bad.args, m.Result, m.Error)
		}
	}
}

// FuzzConnHandle: any message, decoded from any JSON, is handled without a
// panic, and every request is answered at most once.
func FuzzConnHandle(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"generate_template","arguments":{"resource_uri":"template://makefile/rust/cli","parameters":{"project_name":"a"}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"size":100}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":1}}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"plan_scaffold"}}`,
		`{"jsonrpc":"2.0","method":"$/cancel","params":{"requestId":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":[]}`,
		`{"jsonrpc":"2.0","id":1,"method":"interaction.start","params":{"toolName":"book_trip","initialParams":{"destination":"Oslo"},"timeout":5}}`,
		`{"jsonrpc":"2.0","id":1,"method":"interaction.respond","params":{"sessionId":"eyJzZXNzaW9uSWQiOiJ4In0","response":{"value":1}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"interaction.cancel","params":{"sessionId":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"capabilities"}`,
		`{"jsonrpc":"2.0","id":"s1","result":{"acknowledged":true}}`,
	} {
		f.Add([]byte(s))
	}
	s, err := New(Options{SandboxRoot: f.TempDir()})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := jsonrpc.DecodeMessage(body)
		if err != nil {
			return
		}
		r := newRecorder()
		c := s.NewConn(r)
		c.Handle(m)
		c.Close()
		if m.Kind() == jsonrpc.KindRequest {
			if n := r.responses(*m.ID); n > 1 {
				t.Fatalf("%d answers", n)
			}
		}
	})
}
