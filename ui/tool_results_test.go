package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// toolResultsStore holds a tools/list of screentest.ToolPeerTools and a
// tools/call of each tool answered as the ToolPeer answers, then a call of
// a tool never listed: frames 1–2 the list, 3–10 the calls in the order
// read_file, weather, forecast, echo, and 11–12 the unlisted tool.
func toolResultsStore(t *testing.T) *capture.Store {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	add(capture.Out, request(t, 1, mcp.MethodToolsList, map[string]any{}))
	add(capture.In, result(t, 1, map[string]any{"tools": json.RawMessage(screentest.ToolPeerTools)}))
	for i, tool := range []string{"read_file", "weather", "forecast", "echo"} {
		id := int64(i + 2)
		add(capture.Out, request(t, id, mcp.MethodToolsCall, map[string]any{"name": tool}))
		add(capture.In, result(t, id, json.RawMessage(screentest.ToolPeerResults[tool])))
	}
	add(capture.Out, request(t, 6, mcp.MethodToolsCall, map[string]any{"name": "unlisted"}))
	add(capture.In, result(t, 6, json.RawMessage(`{"content":[{"type":"text","text":"fine"}],"structuredContent":{"temp":"warm"}}`)))
	return st
}

// A tools/call answered with a result that is nonetheless a failure reads
// as an error row naming why, and the "error" filter finds it; a result
// of a tool never listed is judged on isError only.
func TestToolFailureIsAnErrorRow(t *testing.T) {
	st := toolResultsStore(t)
	m := newTestModel(t, st, 140, 30)
	want := map[uint64]string{
		4:  "result ✗ isError: ENOENT: no such file · tools/call read_file",
		6:  "result ✗ outputSchema: ",
		8:  "result ✗ no structuredContent · tools/call forecast",
		10: "result · tools/call echo",
		12: "result · tools/call unlisted",
	}
	for seq, w := range want {
		f, _ := st.Get(seq)
		label, tone := frameLabel(f, m.idx, mcp.DialectMCP)
		if bad := seq < 10; !strings.HasPrefix(label, w) || (tone == toneBad) != bad {
			t.Errorf("frame %d reads %q (tone %v), want %q, an error row: %v", seq, label, tone, w, bad)
		}
	}
	filterBy(m, "error")
	var matched []uint64
	for i := range m.idx.filter.count() {
		matched = append(matched, m.idx.filter.seqAt(i))
	}
	if len(matched) != 3 || matched[0] != 4 || matched[1] != 6 || matched[2] != 8 {
		t.Errorf("error matches frames %v, want the three failed results 4, 6, 8", matched)
	}
	if rows := strings.Join(trafficRows(m), "\n"); !strings.Contains(rows, "isError") || strings.Contains(rows, "echo") {
		t.Errorf("the filtered traffic:\n%s", rows)
	}
}

// The detail of a failed tool result says what failed, naming the tool.
func TestToolFailureInDetail(t *testing.T) {
	st := toolResultsStore(t)
	m := newTestModel(t, st, 140, 40)
	for seq, w := range map[uint64]string{
		4: `tool "read_file" failed (isError): ENOENT: no such file`,
		6: `tool "weather" returned structuredContent that fails its outputSchema`,
	} {
		m.traffic.selectSeq(seq)
		m.syncSelection()
		m.detail.SetSize(120, 12)
		m.detail.prepare()
		if d := ansi.Strip(m.detail.Render(120, 12, true)); !strings.Contains(d, w) {
			t.Errorf("detail of frame %d:\n%s", seq, d)
		}
	}
	m.traffic.selectSeq(10)
	m.syncSelection()
	m.detail.prepare()
	if d := ansi.Strip(m.detail.Render(120, 12, true)); strings.Contains(d, "failed") {
		t.Errorf("the detail of a plain result reads as failed:\n%s", d)
	}
}

// A failed tool result is painted in the error colour; a probe and its
// refusal are painted muted, never in the error colour.
func TestFailedToolAndProbeRowColours(t *testing.T) {
	st := toolResultsStore(t)
	c := &clock{n: 100}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 7, mcp.MethodCapabilities, nil)))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, jsonrpc.NewErrorResponse(jsonrpc.IntID(7), mcp.CodeMethodNotFound, "Method not found", nil)))
	m := newTestModel(t, st, 140, 30)
	m.traffic.sel = 0
	opening := func(tint interface{ Paint(string) string }) string {
		lead, _, _ := strings.Cut(tint.Paint("\x1f"), "\x1f")
		return lead
	}
	errLead, mutedLead := opening(m.styles.Ink.Error), opening(m.styles.Ink.Muted)
	if errLead == "" || mutedLead == "" || errLead == mutedLead {
		t.Fatalf("the test needs colours: error %q, muted %q", errLead, mutedLead)
	}
	cols := trafficColumns(100)
	for seq, lead := range map[uint64]string{4: errLead, 6: errLead, 13: mutedLead, 14: mutedLead} {
		f, _ := st.Get(seq)
		if row := m.traffic.row(f, cols, true); !strings.HasPrefix(row, lead) || lead != errLead && strings.HasPrefix(row, errLead) {
			t.Errorf("frame %d painted %q", seq, row)
		}
	}
}

// The outputSchemas judged are those of the current connection: a large
// schema is kept, a reconnect's listing starts afresh, and the tools an
// earlier connection listed neither crowd out nor judge the new ones.
func TestToolSchemasOfCurrentConnection(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(conn string, dir capture.Dir, m *jsonrpc.Message) {
		f := controlFrame(t, dir, c.next(), proto.EncJSON, m)
		f.Conn = conn
		st.Append(f)
	}
	big := map[string]any{"type": "object", "description": strings.Repeat("x", 16<<10)}
	var many []map[string]any
	for i := range 1100 {
		many = append(many, map[string]any{"name": "t" + strings.Repeat("0", 4-len(fmt.Sprint(i))) + fmt.Sprint(i), "inputSchema": map[string]any{"type": "object"}, "outputSchema": map[string]any{"type": "object"}})
	}
	add("wt#1", capture.Out, request(t, 1, mcp.MethodToolsList, map[string]any{}))
	add("wt#1", capture.In, result(t, 1, map[string]any{"tools": many}))
	add("wt#2", capture.Out, request(t, 1, mcp.MethodToolsList, map[string]any{}))
	add("wt#2", capture.In, result(t, 1, map[string]any{"tools": []map[string]any{
		{"name": "big", "inputSchema": map[string]any{"type": "object"}, "outputSchema": big}}}))
	noStructured := json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`)
	add("wt#2", capture.Out, request(t, 2, mcp.MethodToolsCall, map[string]any{"name": "big"}))
	add("wt#2", capture.In, result(t, 2, noStructured))
	add("wt#2", capture.Out, request(t, 3, mcp.MethodToolsCall, map[string]any{"name": "t0001"}))
	add("wt#2", capture.In, result(t, 3, noStructured))
	m := newTestModel(t, st, 140, 30)
	for seq, w := range map[uint64]string{6: "result ✗ no structuredContent · tools/call big", 8: "result · tools/call t0001"} {
		f, _ := st.Get(seq)
		if label, _ := frameLabel(f, m.idx, mcp.DialectMCP); !strings.HasPrefix(label, w) {
			t.Errorf("frame %d reads %q, want %q", seq, label, w)
		}
	}
}

// The screens are given the outputSchemas of the current connection's
// listing, so the composer judges a result as its traffic row does.
func TestHostGivesOutputSchema(t *testing.T) {
	m := newTestModel(t, toolResultsStore(t), 140, 30)
	m.conn.gen = 1
	if s := (driver{m}).OutputSchema("weather"); s == nil {
		t.Error("no outputSchema for weather")
	}
	m.conn.gen = 2
	if s := (driver{m}).OutputSchema("weather"); s != nil {
		t.Errorf("an earlier connection's outputSchema: %s", s)
	}
}
