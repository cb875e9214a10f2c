package tasksview

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// feed is a little capture: frames in order, Seq from 1, a second apart.
type feed struct {
	b   *Book
	seq uint64
}

func (f *feed) add(t *testing.T, dir capture.Dir, m *jsonrpc.Message) uint64 {
	t.Helper()
	f.seq++
	f.b.Note(&capture.Frame{Seq: f.seq, Time: t0.Add(time.Duration(f.seq) * time.Second), Dir: dir, Conn: "c1", Msg: m})
	return f.seq
}

func raw(s string) any { return jsonRaw(s) }

type jsonRaw string

func (r jsonRaw) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// capture2 is a v2 task that completes, a v1 task that asks a question
// through tasks/result, and a plain call that is no task.
func capture2(t *testing.T) (*Book, map[string]uint64) {
	f := &feed{b: NewBook()}
	seqs := map[string]uint64{}
	id := jsonrpc.IntID
	seqs["call"] = f.add(t, capture.Out, mustReq(id(2), "tools/call", `{"name":"greet"}`))
	seqs["handle"] = f.add(t, capture.In, mustRes(id(2), `{"resultType":"task","taskId":"T-v2","status":"working","statusMessage":"Started","pollIntervalMs":50}`))
	seqs["get"] = f.add(t, capture.Out, mustReq(id(3), "tasks/get", `{"taskId":"T-v2"}`))
	seqs["got"] = f.add(t, capture.In, mustRes(id(3), `{"resultType":"complete","taskId":"T-v2","status":"input_required","statusMessage":"Waiting for the name","inputRequests":{"name":{"method":"elicitation/create"}}}`))
	f.add(t, capture.Out, mustReq(id(4), "echo", `{}`))
	f.add(t, capture.In, mustRes(id(4), `{"content":[]}`))
	f.add(t, capture.Out, mustReq(id(5), "tools/call", `{"name":"simulate-research-query","task":{"ttl":60000}}`))
	f.add(t, capture.In, mustRes(id(5), `{"task":{"taskId":"T-v1","status":"working","pollInterval":1000,"statusMessage":"Gathering sources..."}}`))
	f.add(t, capture.Out, mustReq(id(6), "tasks/result", `{"taskId":"T-v1"}`))
	seqs["question"] = f.add(t, capture.In, mustReq(id(0), "elicitation/create", `{"message":"which?","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"T-v1"}}}`))
	seqs["answer"] = f.add(t, capture.Out, mustRes(id(0), `{"action":"accept","content":{"interpretation":"snake"}}`))
	seqs["status"] = f.add(t, capture.In, mustNote("notifications/tasks/status", `{"taskId":"T-v1","status":"failed","statusMessage":"Out of \u001b[31mcoffee"}`))
	return f.b, seqs
}

func must(m *jsonrpc.Message, err error) *jsonrpc.Message {
	if err != nil {
		panic(err)
	}
	return m
}

func mustReq(id jsonrpc.ID, method, params string) *jsonrpc.Message {
	return must(jsonrpc.NewRequest(id, method, raw(params)))
}

func mustRes(id jsonrpc.ID, result string) *jsonrpc.Message {
	return must(jsonrpc.NewResult(id, raw(result)))
}

func mustNote(method, params string) *jsonrpc.Message {
	return must(jsonrpc.NewNotification(method, raw(params)))
}

func TestBookFollowsBothGenerations(t *testing.T) {
	b, seqs := capture2(t)
	ts := b.Tasks()
	if len(ts) != 2 || ts[0].ID != "T-v2" || ts[0].Status != "input_required" || ts[0].Tool != "greet" || ts[0].Call.String() != "2" {
		t.Fatalf("%+v", ts)
	}
	if ts[1].ID != "T-v1" || ts[1].Status != "failed" || ts[1].Tool != "simulate-research-query" {
		t.Fatalf("%+v", ts[1])
	}
	want := []uint64{seqs["call"], seqs["handle"], seqs["get"], seqs["got"]}
	if got := b.Linked(seqs["get"]); len(got) != 4 || got[0] != want[0] || got[3] != want[3] {
		t.Fatalf("v2 task links %v, want %v", got, want)
	}
	if got := b.Linked(seqs["answer"]); len(got) != 6 || got[len(got)-1] != seqs["status"] {
		t.Fatalf("v1 task links %v", got)
	}
	if b.Linked(5) != nil {
		t.Fatal("a plain call is linked to a task")
	}
}

func TestViewListDetailAndFrames(t *testing.T) {
	b, _ := capture2(t)
	h := screentest.NewHost()
	v := Open(h, b)
	v.SetClock(func() time.Time { return t0.Add(20 * time.Second) })
	v.SetSize(100, 6)
	goldentest.CheckPlain(t, "tasks_list", v.Render(100, 6))
	v.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	v.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	goldentest.CheckPlain(t, "tasks_detail", v.Render(100, 11))
	v.Update(tea.KeyPressMsg{Code: 'l', Text: "l"})
	if len(h.Shown) != 1 || h.Shown[0].String() != "2" {
		t.Fatalf("l showed %v", h.Shown)
	}
	if _, closed := v.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); closed {
		t.Fatal("esc in the detail closed the view")
	}
	if _, closed := v.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); !closed {
		t.Fatal("esc in the list did not close the view")
	}
}

// The book's memory is bounded however many tasks a capture holds.
func TestBookBounded(t *testing.T) {
	f := &feed{b: NewBook()}
	for i := range maxTasks + 10 {
		id := jsonrpc.IntID(int64(i + 1))
		f.add(t, capture.Out, mustReq(id, "tools/call", `{"name":"x"}`))
		f.add(t, capture.In, mustRes(id, `{"resultType":"task","taskId":"T`+id.String()+`","status":"working"}`))
	}
	if n := len(f.b.Tasks()); n != maxTasks || len(f.b.bySeq) > maxTasks*2 {
		t.Fatalf("%d tasks, %d seqs", n, len(f.b.bySeq))
	}
	if got, want := Open(screentest.NewHost(), f.b).Title(), "Tasks (1024; 10 older forgotten)"; got != want {
		t.Fatalf("title %q, want %q", got, want)
	}
}

// A v2 task's status pushed on the follow's subscriptions/listen (tagged
// with the subscription's id) updates the task, and both the listen that
// names the task and the pushed notification are linked to it; a listen
// that names no known task is linked to none.
func TestBookPushedStatus(t *testing.T) {
	f := &feed{b: NewBook()}
	id := jsonrpc.IntID
	call := f.add(t, capture.Out, mustReq(id(2), "tools/call", `{"name":"slow_compute"}`))
	f.add(t, capture.In, mustRes(id(2), `{"resultType":"task","taskId":"T-push","status":"working","statusMessage":"Started","pollIntervalMs":30000}`))
	listen := f.add(t, capture.Out, mustReq(id(3), "subscriptions/listen", `{"notifications":{"taskIds":[7,"T-push","T-push"]}}`))
	other := f.add(t, capture.Out, mustReq(id(4), "subscriptions/listen", `{"notifications":{"taskIds":"T-push","toolsListChanged":true}}`))
	f.add(t, capture.In, mustNote("notifications/subscriptions/acknowledged", `{"_meta":{"io.modelcontextprotocol/subscriptionId":3},"notifications":{"taskIds":["T-push"]}}`))
	pushed := f.add(t, capture.In, mustNote("notifications/tasks", `{"_meta":{"io.modelcontextprotocol/subscriptionId":3},"taskId":"T-push","status":"working","statusMessage":"Computing"}`))
	done := f.add(t, capture.In, mustNote("notifications/tasks", `{"_meta":{"io.modelcontextprotocol/subscriptionId":3},"taskId":"T-push","status":"completed","statusMessage":"Done","result":{"content":[]}}`))
	ts := f.b.Tasks()
	if len(ts) != 1 || ts[0].Status != "completed" || ts[0].Message != "Done" || ts[0].Updates != 3 {
		t.Fatalf("%+v", ts)
	}
	got := f.b.Linked(pushed)
	if len(got) != 5 || got[0] != call || got[2] != listen || got[3] != pushed || got[4] != done {
		t.Fatalf("the task links %v", got)
	}
	if f.b.Linked(other) != nil {
		t.Fatal("a listen with a malformed filter is linked to a task")
	}
}
