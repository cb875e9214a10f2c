package ui

import (
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Progress the server reports for a tools/call after answering it with a
// task handle (the task goes on under the call's progressToken) moves
// the call's bar, which the explorer's waiting view shows.
func TestTaskProgressAfterHandle(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	add(capture.Out, request(t, 17, mcp.MethodToolsCall, map[string]any{"_meta": map[string]any{"progressToken": 17}, "name": "slow"}))
	add(capture.In, result(t, 17, map[string]any{"resultType": "task", "taskId": "T", "status": "working"}))
	add(capture.In, notification(t, mcp.MethodNotifyProgress, map[string]any{"progressToken": 17, "progress": 3, "total": 4, "message": "three"}))
	m := newTestModel(t, st, 140, 40)
	m.conn.gen = 1
	s, ok := driver{m}.Progress(jsonrpc.IntID(17))
	if !ok || s.Reports != 1 || s.Progress != 3 || s.Message != "three" {
		t.Fatalf("%+v %v", s, ok)
	}
}
