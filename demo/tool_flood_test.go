package demo

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// floodLine is one notifications/message a flood sent.
type floodLine struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger"`
	Data   json.RawMessage `json:"data"`
}

// floodLines decodes the notifications/message the recorder holds.
func floodLines(t *testing.T, r *recorder) []floodLine {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []floodLine
	for _, m := range r.msgs {
		if m.Method != mcp.MethodNotifyMessage {
			continue
		}
		var l floodLine
		if err := json.Unmarshal(m.Params, &l); err != nil {
			t.Fatalf("notifications/message params %s: %v", m.Params, err)
		}
		out = append(out, l)
	}
	return out
}

// checkNumbered checks that lines are info lines of the flood logger
// numbered 1…len(lines) in order.
func checkNumbered(t *testing.T, lines []floodLine) {
	t.Helper()
	for i, l := range lines {
		if l.Level != "info" || l.Logger != FloodLogger || string(l.Data) != fmt.Sprint(i+1) {
			t.Fatalf("line %d is %+v (data %s), want info line %d of the flood", i, l, l.Data, i+1)
		}
	}
}

// floodCall runs misbehave with args on a fresh connection and returns
// the answer and what the connection sent.
func floodCall(t *testing.T, args map[string]any) (*jsonrpc.Message, *recorder) {
	t.Helper()
	r := newRecorder()
	c := newTestServer(t).NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, "tools/call", map[string]any{"name": "misbehave", "arguments": args}))
	return r.response(t, 1), r
}

// floodReportOf decodes the structuredContent of a flood's result.
func floodReportOf(t *testing.T, m *jsonrpc.Message) (FloodReport, string) {
	t.Helper()
	var res mcp.CallToolResult
	if m.Error != nil || json.Unmarshal(m.Result, &res) != nil || len(res.Content) != 1 {
		t.Fatalf("flood answer %s %+v", m.Result, m.Error)
	}
	var r FloodReport
	if err := json.Unmarshal(res.StructuredContent, &r); err != nil {
		t.Fatalf("structuredContent %s: %v", res.StructuredContent, err)
	}
	return r, res.Content[0].Text
}

// notification_flood sends count numbered notifications/message on the
// connection, then answers with the count and the rate it reached.
func TestNotificationFloodCount(t *testing.T) {
	m, rec := floodCall(t, map[string]any{"mode": ModeNotificationFlood, "count": 3000})
	r, text := floodReportOf(t, m)
	lines := floodLines(t, rec)
	if len(lines) != 3000 || r.Sent != 3000 || r.Mode != ModeNotificationFlood || r.Cancelled {
		t.Fatalf("%d lines, report %+v", len(lines), r)
	}
	checkNumbered(t, lines)
	if r.Seconds <= 0 || r.PerSecond <= 0 || !strings.HasPrefix(text, "flood sent: 3000 notifications/message in ") ||
		!strings.HasSuffix(text, fmt.Sprintf("(%.0f messages/s)", r.PerSecond)) {
		t.Errorf("report %+v, text %q", r, text)
	}
}

// datagram_flood sends through the call's emitter (log datagrams on
// MCP-Flow); without count it sends DefaultFloodCount.
func TestDatagramFloodDefaultCount(t *testing.T) {
	m, r := floodCall(t, map[string]any{"mode": ModeDatagramFlood})
	rep, text := floodReportOf(t, m)
	r.mu.Lock()
	logs := len(r.logs)
	first, last := r.logs[0], r.logs[logs-1]
	r.mu.Unlock()
	if rep.Sent != DefaultFloodCount || logs != DefaultFloodCount || first != "info flood 1" || last != fmt.Sprintf("info flood %d", DefaultFloodCount) {
		t.Fatalf("report %+v, %d emitted (%q … %q)", rep, logs, first, last)
	}
	if !strings.HasPrefix(text, "flood sent: 50000 log datagrams in ") {
		t.Errorf("text %q", text)
	}
}

// duration_ms alone floods until the time is up: the call ends by itself
// and every line it reports went out.
func TestFloodDuration(t *testing.T) {
	m, rec := floodCall(t, map[string]any{"mode": ModeNotificationFlood, "duration_ms": 30})
	r, _ := floodReportOf(t, m)
	lines := floodLines(t, rec)
	if r.Sent == 0 || r.Sent >= MaxFloodCount || len(lines) != r.Sent {
		t.Fatalf("report %+v, %d lines", r, len(lines))
	}
	checkNumbered(t, lines)
}

// $/cancel stops a flood: the last line (level notice) reports how many
// went out, then the call is answered "Cancelled".
func TestFloodCancelled(t *testing.T) {
	r := newRecorder()
	c := newTestServer(t).NewConn(r)
	defer c.Close()
	c.Handle(request(t, 7, "tools/call", map[string]any{"name": "misbehave",
		"arguments": map[string]any{"mode": ModeNotificationFlood, "count": MaxFloodCount}}))
	deadline := time.Now().Add(guard.Hang)
	for {
		r.mu.Lock()
		n := len(r.msgs)
		r.mu.Unlock()
		if n >= 1000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for 1000 lines of the flood; it sent %d", guard.Hang, n)
		}
		<-r.sent
	}
	cancel, err := jsonrpc.NewNotification(flow.MethodFlowCancel, flow.FlowCancelParams{RequestID: 7, Reason: "enough"})
	if err != nil {
		t.Fatal(err)
	}
	c.Handle(cancel)
	if m := r.response(t, 7); rpcCode(m) != CodeCancelled {
		t.Fatalf("answer %s %+v", m.Result, m.Error)
	}
	lines := floodLines(t, r)
	last := lines[len(lines)-1]
	var rep FloodReport
	if err := json.Unmarshal(last.Data, &rep); err != nil || last.Level != "notice" || !rep.Cancelled {
		t.Fatalf("last line %+v (%s): %v", last, last.Data, err)
	}
	if rep.Sent != len(lines)-1 || rep.Sent >= MaxFloodCount {
		t.Fatalf("the report says %d sent, %d numbered lines went out", rep.Sent, len(lines)-1)
	}
	checkNumbered(t, lines[:len(lines)-1])
}

// Arguments out of range, and a log level that would drop every line, are
// refused with -32602 before anything is sent.
func TestFloodRefused(t *testing.T) {
	s := newTestServer(t)
	for _, args := range []map[string]any{
		{"mode": ModeNotificationFlood, "count": -1},
		{"mode": ModeDatagramFlood, "count": MaxFloodCount + 1},
		{"mode": ModeNotificationFlood, "duration_ms": MaxFloodDuration.Milliseconds() + 1},
		{"mode": ModeNotificationFlood, "duration_ms": -5},
	} {
		if m := callTool(t, s, "misbehave", args); rpcCode(m) != mcp.CodeInvalidParams {
			t.Errorf("%v: answer %s %+v", args, m.Result, m.Error)
		}
	}
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, "logging/setLevel", map[string]any{"level": "warning"}))
	c.Handle(request(t, 2, "tools/call", map[string]any{"name": "misbehave", "arguments": map[string]any{"mode": ModeNotificationFlood}}))
	m := r.response(t, 2)
	if rpcCode(m) != mcp.CodeInvalidParams || !strings.Contains(m.Error.Message, "level warning and above") || len(floodLines(t, r)) != 0 {
		t.Errorf("answer %+v, %d lines", m.Error, len(floodLines(t, r)))
	}
}

// The schema of misbehave offers every mode and the flood arguments.
func TestMisbehaveSchemaListsModes(t *testing.T) {
	var s struct {
		Properties struct {
			Mode struct {
				Enum []string `json:"enum"`
			} `json:"mode"`
			Count      map[string]any `json:"count"`
			DurationMs map[string]any `json:"duration_ms"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(misbehaveSchema(), &s); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s.Properties.Mode.Enum) != fmt.Sprint(MisbehaveModes) || s.Properties.Count["maximum"] != float64(MaxFloodCount) ||
		s.Properties.DurationMs["maximum"] != float64(MaxFloodDuration.Milliseconds()) {
		t.Errorf("schema %+v", s)
	}
}
