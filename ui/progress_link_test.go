package ui

import (
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// progressStore holds an MCP session where the client's tools/call 17
// asks for progress and the server reports it twice before the result;
// the server's own request 17 gets progress from the client, and one
// progress names a request that was never seen.
func progressStore(t testing.TB) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	progress := func(token any, n float64) *jsonrpc.Message {
		return notification(t, mcp.MethodNotifyProgress, map[string]any{"progressToken": token, "progress": n, "total": 2})
	}
	add(capture.Out, request(t, 17, mcp.MethodToolsCall, map[string]any{"_meta": map[string]any{"progressToken": 17},
		"name": "trigger-long-running-operation", "arguments": map[string]any{"duration": 2, "steps": 2}}))
	add(capture.In, request(t, 17, "sampling/createMessage", map[string]any{"_meta": map[string]any{"progressToken": 17}}))
	add(capture.In, progress(17, 1))
	add(capture.Out, progress(17, 1)) // the client's progress on the server's request
	add(capture.In, progress(99, 1))
	add(capture.In, progress(17, 2))
	add(capture.In, result(t, 17, map[string]any{"content": []any{}}))
	return st
}

// labels are the traffic labels of the frames with seqs.
func labels(t *testing.T, m *Model, seqs []uint64) []string {
	t.Helper()
	var out []string
	for _, s := range seqs {
		f, ok := m.cfg.Store.Get(s)
		if !ok {
			t.Fatalf("frame %d is gone", s)
		}
		label, _ := frameLabel(f, m.idx, mcp.DialectMCP)
		out = append(out, frameID(f)+" "+label)
	}
	return out
}

// walkLinks presses l n times and returns the frames it selected.
func walkLinks(t *testing.T, m *Model, n int) []uint64 {
	t.Helper()
	var walked []uint64
	for range n {
		press(m, "l")
		walked = append(walked, selectedFrame(t, m).Seq)
	}
	return walked
}

// TestProgressLinkedToItsRequest checks notifications/progress is a frame
// of the call its token names: l walks to it, it shows the request's id
// and name, and the server's progress never joins the server's own
// request of the same id.
func TestProgressLinkedToItsRequest(t *testing.T) {
	m := newTestModel(t, progressStore(t), 140, 30)
	selectWhere(t, m, isMethod(mcp.MethodToolsCall))
	walked := walkLinks(t, m, 6)
	call := "tools/call trigger-long-running-operation"
	want := []string{"17 " + mcp.MethodNotifyProgress + " · " + call, "17 " + mcp.MethodNotifyProgress + " · " + call,
		"17 result · " + call, "17 " + call}
	if got := labels(t, m, walked[:4]); !slices.Equal(got, want) {
		t.Errorf("l walked %q, want %q", got, want)
	}
	selectWhere(t, m, isMethod("sampling/createMessage"))
	press(m, "l")
	if got := labels(t, m, []uint64{selectedFrame(t, m).Seq}); got[0] != "17 "+mcp.MethodNotifyProgress+" · sampling/createMessage" {
		t.Errorf("l from the server's request: %q, want the client's progress", got)
	}
	if got := labels(t, m, []uint64{5}); got[0] != "99 "+mcp.MethodNotifyProgress {
		t.Errorf("progress for an unknown request: %q", got)
	}
}

// TestFilterFindsProgressByID checks /#17 finds the progress of request
// 17 beside its request and answer.
func TestFilterFindsProgressByID(t *testing.T) {
	m := newTestModel(t, progressStore(t), 140, 30)
	checkFilterCounts(t, m, []filterCount{
		{"#17", 6}, {"< #17", 4}, {"> #17", 2}, {"#99", 1}, {"trigger", 4}, {"progress", 4},
	})
}
