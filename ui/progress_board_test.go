package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// longCall is the label of the TypeScript server's long-running tool.
const longCall = "tools/call trigger-long-running-operation"

// cancelStore holds an MCP session where the client's call 5 reports
// progress, is cancelled with notifications/cancelled, and keeps
// reporting (as the TypeScript server does); the server's own request 8
// is cancelled by the server.
func cancelStore(t testing.TB) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	progress := func(n float64) *jsonrpc.Message {
		return notification(t, mcp.MethodNotifyProgress, map[string]any{"progressToken": 5, "progress": n, "total": 4, "message": fmt.Sprintf("step %g", n)})
	}
	add(capture.Out, request(t, 5, mcp.MethodToolsCall, map[string]any{"_meta": map[string]any{"progressToken": 5},
		"name": "trigger-long-running-operation", "arguments": map[string]any{"duration": 4, "steps": 4}}))
	add(capture.In, progress(1))
	add(capture.Out, notification(t, mcp.MethodNotifyCancelled, mcp.CancelledNotificationParams{RequestID: jsonrpc.IntID(5), Reason: "cancelled by the user"}))
	add(capture.In, progress(2))
	add(capture.In, request(t, 8, "sampling/createMessage", map[string]any{}))
	add(capture.In, notification(t, mcp.MethodNotifyCancelled, mcp.CancelledNotificationParams{RequestID: jsonrpc.IntID(8)}))
	return st
}

// TestCancelMarksRowsAndBar checks a cancelled request is marked in its
// row and on its cancellation, progress after the cancel is flagged, a
// cancellation the server sends marks its own request, the bar ends
// "cancelled", and /#id finds the cancellation.
func TestCancelMarksRowsAndBar(t *testing.T) {
	m := newTestModel(t, cancelStore(t), 140, 30)
	want := []string{
		"5 " + longCall + " ✕ cancelled",
		"5 notifications/progress · " + longCall,
		"5 notifications/cancelled ✕ cancelled · " + longCall,
		"5 notifications/progress ✕ progress after cancel · " + longCall,
		"8 sampling/createMessage ✕ cancelled",
		"8 notifications/cancelled ✕ cancelled · sampling/createMessage",
	}
	if got := labels(t, m, []uint64{1, 2, 3, 4, 5, 6}); !slices.Equal(got, want) {
		t.Errorf("labels:\n%q\nwant\n%q", got, want)
	}
	checkFilterCounts(t, m, []filterCount{{"#5", 4}, {"#8", 2}, {"> #5", 2}})
	bars := m.idx.progress.newestFirst(maxProgressRows, nil)
	if len(bars) != 1 {
		t.Fatalf("%d bars, want the one of request 5", len(bars))
	}
	line := ansi.Strip(renderProgressBar(bars[0], m.idx.progress.now, 200, m.styles))
	for _, part := range []string{"#5", " 50% 2/4 ✕ cancelled", "progress after cancel (1)", "10ms", longCall, "step 2"} {
		if !strings.Contains(line, part) {
			t.Errorf("bar %q lacks %q", line, part)
		}
	}
}

// TestProgressStripOnMCP checks that where the Datagrams pane is not on
// screen (every MCP connection) the traffic pane shows the progress board
// under its rows, and that the rows and the strip fill the pane exactly.
func TestProgressStripOnMCP(t *testing.T) {
	m := newTestModel(t, cancelStore(t), 140, 30)
	m.setPanes(panesFor(mcp.DialectMCP))
	s := screenText(m)
	if !strings.Contains(s, "Progress · 1 request") || !lineWith(s, "#5", "✕ cancelled", "progress after cancel") {
		t.Errorf("no progress strip on the MCP screen:\n%s", s)
	}
	m.setPanes(panesFor(mcp.DialectMCPFlow))
	if s := screenText(m); strings.Contains(s, "Progress · ") || !lineWith(s, "#5", "✕ cancelled") {
		t.Errorf("on MCP-Flow the board belongs in the Datagrams pane:\n%s", s)
	}
	m.setPanes(panesFor(mcp.DialectMCP))
	for _, h := range []int{1, 5, 8, 9, 30} {
		m.traffic.SetSize(100, h)
		if n := strings.Count(m.traffic.Render(100, h, true), "\n") + 1; n != h {
			t.Errorf("traffic at height %d: %d lines", h, n)
		}
	}
	m.traffic.SetSize(100, 20)
	if got := m.traffic.listRows(); got != 20-1-2 {
		t.Errorf("list rows %d beside a strip of one bar", got)
	}
}

// TestProgressStripLeavesWhenDone checks the strip shows a request while
// it runs and for a moment after it ended, then leaves.
func TestProgressStripLeavesWhenDone(t *testing.T) {
	m := newTestModel(t, progressStore(t), 140, 30)
	m.setPanes(panesFor(mcp.DialectMCP))
	if s := screenText(m); !lineWith(s, "#17", "100% 2/2 ✓ done", "tools/call trigger-long") {
		t.Errorf("the answered call is not on the strip:\n%s", s)
	}
	m.idx.progress.tick(m.idx.progress.now.Add(stripLinger))
	if s := screenText(m); lineWith(s, "#17", "done") {
		t.Errorf("the answered call stays on the strip after %s:\n%s", stripLinger, s)
	}
	if s := screenText(m); !lineWith(s, "#99", "50% 1/2") {
		t.Errorf("the request that never answered left the strip:\n%s", s)
	}
	m.idx.progress.tick(m.idx.progress.now.Add(stripIdle))
	if s := screenText(m); strings.Contains(s, "Progress · ") {
		t.Errorf("a silent request stays on the strip after %s:\n%s", stripIdle, s)
	}
}

// TestProgressBoardOneForBoth checks MCP notifications and MCP-Flow
// datagrams feed the same board, with a moving block when there is no
// total, and that the board stays bounded whatever arrives.
func TestProgressBoardOneForBoth(t *testing.T) {
	st := sampleStore(t) // a progress datagram of analyze 3
	c := &clock{n: 100}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncCBOR, request(t, 20, mcp.MethodToolsCall, map[string]any{"name": "count"})))
	for n := range 3 {
		st.Append(controlFrame(t, capture.In, c.next(), proto.EncCBOR, notification(t, mcp.MethodNotifyProgress,
			map[string]any{"progressToken": 20, "progress": n + 1, "message": "\x1b]0;pwned\x07 counting"})))
	}
	m := newTestModel(t, st, 140, 40)
	got := ansi.Strip(m.datagrams.Render(120, 8, true))
	lines := strings.Split(got, "\n")
	if !strings.Contains(lines[0], "#20") || !strings.Contains(lines[0], "3 (no total)") || !strings.Contains(lines[0], "tools/call count") ||
		!strings.Contains(lines[1], "#3") || !strings.Contains(lines[1], "40% 2/5") {
		t.Errorf("the board, newest first:\n%s", got)
	}
	if !strings.Contains(lines[0], "░░▌▌▌░") || strings.Contains(got, "\x1b]") || !strings.Contains(lines[0], `\x1b]0;pwned\x07`) {
		t.Errorf("the count without total, or its message:\n%q", lines[0])
	}

	big := capture.NewStore(capture.Config{})
	long := strings.Repeat("x", 64<<10)
	for i := range 3 * maxProgressRows {
		big.Append(controlFrame(t, capture.In, t0.Add(time.Duration(i)), proto.EncJSON, notification(t, mcp.MethodNotifyProgress,
			map[string]any{"progressToken": i, "progress": 1, "message": long})))
	}
	x := newIndex()
	x.catchUp(big)
	if n := len(x.progress.bars); n > 2*maxProgressRows {
		t.Errorf("%d bars kept", n)
	}
	for _, b := range x.progress.bars {
		if len(b.message) > 2*maxProgressMessage {
			t.Fatalf("a progress message of %d bytes kept", len(b.message))
		}
	}
}

// TestCancelKeyOnProgressAndServerRows checks the cancel key on a
// progress notification cancels the request it reports on, and on a
// frame of the server's own request says it cannot.
func TestCancelKeyOnProgressAndServerRows(t *testing.T) {
	m := newTestModel(t, cancelStore(t), 140, 30)
	for _, k := range []string{"ctrl+x", "c"} {
		m.traffic.selectSeq(2) // the progress of call 5
		m.status = statusLine{}
		press(m, k)
		if !strings.Contains(m.status.err, "not connected") {
			t.Errorf("%s on a progress row: %q, want the cancel of request 5 to reach the session", k, m.status.err)
		}
	}
	f, _ := m.cfg.Store.Get(2)
	if k, id, ok := requestOf(f); !ok || k.fromServer || id != jsonrpc.IntID(5) {
		t.Errorf("the progress row names %v %v %v", k, id, ok)
	}
	for _, seq := range []uint64{5, 6} {
		m.traffic.selectSeq(seq)
		press(m, "ctrl+x")
		if !strings.Contains(m.status.err, "the server's request 8 (sampling/createMessage)") {
			t.Errorf("ctrl+x on frame %d: %q", seq, m.status.err)
		}
	}
}

// TestCancelAnswerReadsAsCancellation checks the example: the
// error that answers a cancelled MCP-Flow call reads "error -32000
// Cancelled", not "[Stream Limit Exceeded]", in the row and the detail;
// the stream limit is still named where it applies.
func TestCancelAnswerReadsAsCancellation(t *testing.T) {
	st := sampleStore(t)
	c := &clock{n: 100}
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncCBOR, request(t, 30, mcp.MethodToolsCall, map[string]any{"name": "read_file"})))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncCBOR, jsonrpc.NewErrorResponse(jsonrpc.IntID(30), -32000, "too many streams", nil)))
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncCBOR, request(t, 31, mcp.MethodToolsList, nil)))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncCBOR, jsonrpc.NewErrorResponse(jsonrpc.IntID(31), -32000, "busy", nil)))
	m := newTestModel(t, st, 140, 40)
	m.traffic.dialect, m.detail.dialect = mcp.DialectMCPFlow, mcp.DialectMCPFlow
	want := map[uint64]string{
		16: "error -32000 Cancelled · tools/call analyze",
		21: "error -32000 too many streams [Stream Limit Exceeded] · tools/call read_file",
		23: "error -32000 busy [Server error] · tools/list",
	}
	for seq, w := range want {
		f, _ := st.Get(seq)
		if got, _ := frameLabel(f, m.idx, mcp.DialectMCPFlow); got != w {
			t.Errorf("frame %d: %q, want %q", seq, got, w)
		}
	}
	m.traffic.selectSeq(16)
	m.syncSelection()
	m.detail.SetSize(120, 10)
	m.detail.prepare()
	if d := ansi.Strip(m.detail.Render(120, 10, true)); !strings.Contains(d, "error -32000 Cancelled\n") && !strings.Contains(d, "error -32000 Cancelled ") {
		t.Errorf("detail:\n%s", d)
	} else if strings.Contains(d, "Stream Limit") {
		t.Errorf("the detail names the stream limit:\n%s", d)
	}
}

// TestProgressBarNonFinite checks a report of NaN or an infinity (which
// no decoder should hand on, but the board does not rely on it) draws a
// bar rather than panicking.
func TestProgressBarNonFinite(t *testing.T) {
	st := newTestModel(t, capture.NewStore(capture.Config{}), 80, 24).styles
	for _, r := range []progressReport{{progress: math.NaN(), total: 2}, {progress: math.Inf(1), total: math.Inf(1)}, {progress: 1, total: math.NaN()}} {
		var pb progressBoard
		pb.report(callKey{id: "i1"}, jsonrpc.IntID(1), nil, r, t0)
		if line := ansi.Strip(renderProgressBar(&pb.bars[0], t0, 80, st)); ansi.StringWidth(line) != 80 {
			t.Errorf("%+v: %q", r, line)
		}
	}
}

// A report for a request whose bar is not the newest moves the bar to the
// end without copying the board: a progress flood over many requests
// allocates nothing per report, and the bars keep their order.
func TestProgressBoardTouchMovesInPlace(t *testing.T) {
	var b progressBoard
	keys := make([]callKey, maxProgressRows)
	for i := range keys {
		keys[i] = callKey{conn: "wt", id: fmt.Sprint(i)}
		b.report(keys[i], jsonrpc.IntID(int64(i)), nil, progressReport{progress: 1, total: 2}, t0)
	}
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		b.answer(keys[n%len(keys)], false, t0)
		b.report(keys[n%len(keys)], jsonrpc.IntID(0), nil, progressReport{progress: 2, total: 2}, t0)
		n++
	})
	if allocs != 0 {
		t.Fatalf("a report and an answer allocated %.0f times", allocs)
	}
	var order []string
	for _, bar := range b.newestFirst(3, nil) {
		order = append(order, bar.call.id)
	}
	// 101 rounds over 64 keys end on key 100 % 64 = 36.
	if want := []string{"36", "35", "34"}; !slices.Equal(order, want) {
		t.Fatalf("the newest bars are %v, want %v", order, want)
	}
}
