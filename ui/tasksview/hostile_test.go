package tasksview

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// hostileStatus is a task status made of terminal escapes.
var hostileStatus, _ = json.Marshal(screentest.Hostile)

// A server's status, status message and a call id of the captured traffic
// reach the list and the detail escaped.
func TestViewHostileTask(t *testing.T) {
	f := &feed{b: NewBook()}
	id := jsonrpc.StringID(screentest.Hostile)
	f.add(t, capture.Out, mustReq(id, "tools/call", `{"name":"x"}`))
	f.add(t, capture.In, mustRes(id, `{"resultType":"task","taskId":"T","status":`+string(hostileStatus)+`,"statusMessage":`+string(hostileStatus)+`}`))
	v := Open(screentest.NewHost(), f.b)
	v.SetClock(func() time.Time { return t0 })
	screentest.AssertSafeView(t, "list", v.Render(400, 6))
	v.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	screentest.AssertSafeView(t, "detail", v.Render(400, 12))
	if s := v.Render(400, 12); strings.Count(s, `\x1b]0;PWNED`) < 3 {
		t.Errorf("the detail hides some of the hostile text:\n%s", s)
	}
}

// A tasks/get answer that names another task changes neither; a status
// after a terminal one does not bring the task back to life.
func TestBookForeignAndLateSnapshots(t *testing.T) {
	f := &feed{b: NewBook()}
	id := jsonrpc.IntID
	for _, n := range []int64{1, 2} {
		f.add(t, capture.Out, mustReq(id(n), "tools/call", `{"name":"x"}`))
		f.add(t, capture.In, mustRes(id(n), fmt.Sprintf(`{"resultType":"task","taskId":"T%d","status":"working"}`, n)))
	}
	f.add(t, capture.Out, mustReq(id(3), "tasks/get", `{"taskId":"T1"}`))
	f.add(t, capture.In, mustRes(id(3), `{"taskId":"T2","status":"failed"}`))
	if ts := f.b.Tasks(); ts[0].Status != "working" || ts[1].Status != "working" {
		t.Fatalf("a foreign answer changed a task: %s %s", ts[0].Status, ts[1].Status)
	}
	f.add(t, capture.In, mustNote("notifications/tasks/status", `{"taskId":"T1","status":"completed"}`))
	f.add(t, capture.In, mustNote("notifications/tasks/status", `{"taskId":"T1","status":"working"}`))
	if ts := f.b.Tasks(); ts[0].Status != "completed" || ts[0].Updates != 3 {
		t.Fatalf("after completed: %s, %d snapshots", ts[0].Status, ts[0].Updates)
	}
}

// A task polled longer than its frame bound keeps its call, its handle
// and its latest frames linked.
func TestBookLongTaskKeepsItsEnd(t *testing.T) {
	f := &feed{b: NewBook()}
	id := jsonrpc.IntID
	call := f.add(t, capture.Out, mustReq(id(1), "tools/call", `{"name":"x"}`))
	f.add(t, capture.In, mustRes(id(1), `{"resultType":"task","taskId":"T","status":"working"}`))
	var last uint64
	for n := int64(2); n < maxFrames; n++ {
		f.add(t, capture.Out, mustReq(id(n), "tasks/get", `{"taskId":"T"}`))
		last = f.add(t, capture.In, mustRes(id(n), `{"taskId":"T","status":"completed","result":{"content":[]}}`))
	}
	got := f.b.Linked(last)
	if len(got) > maxFrames || got[0] != call || got[len(got)-1] != last || f.b.Linked(call) == nil {
		t.Fatalf("%d frames linked, first %d (call %d), last %d (want %d)", len(got), got[0], call, got[len(got)-1], last)
	}
	if len(f.b.bySeq) > maxFrames {
		t.Fatalf("%d seqs indexed", len(f.b.bySeq))
	}
}

// A v1 task whose tasks/result answers before any poll saw it end is
// shown as it ended: completed by a result, failed by an error answer.
func TestBookV1ResultEndsTask(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer *jsonrpc.Message
		want   mcp.TaskStatus
	}{
		{"result", mustRes(jsonrpc.IntID(2), `{"content":[]}`), mcp.TaskCompleted},
		{"error", jsonrpc.NewErrorResponse(jsonrpc.IntID(2), -32603, "broke", nil), mcp.TaskFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &feed{b: NewBook()}
			f.add(t, capture.Out, mustReq(jsonrpc.IntID(1), "tools/call", `{"name":"research","task":{"ttl":60000}}`))
			f.add(t, capture.In, mustRes(jsonrpc.IntID(1), `{"task":{"taskId":"T1","status":"working","statusMessage":"Gathering"}}`))
			f.add(t, capture.Out, mustReq(jsonrpc.IntID(2), "tasks/result", `{"taskId":"T1"}`))
			f.add(t, capture.In, tc.answer)
			got := f.b.Tasks()[0]
			if got.Status != tc.want || got.Message != "" {
				t.Fatalf("status %q message %q, want %q and none", got.Status, got.Message, tc.want)
			}
		})
	}
}
