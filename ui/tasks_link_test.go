package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// From the traffic, l on a frame of a task walks every frame of that task
// (the tools/call that started it, its answer, tasks/get and its answer, a
// status notification) and no other; T opens the Tasks view listing it.
func TestLinkWalksTaskFrames(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	seqs := []uint64{
		st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "tools/call", raw(`{"name":"slow_compute"}`)))),
		st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, 1, raw(`{"resultType":"task","taskId":"T1","status":"working"}`)))),
	}
	other := st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 2, "ping", nil)))
	seqs = append(seqs,
		st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 3, "tasks/get", raw(`{"taskId":"T1"}`)))),
		st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, 3, raw(`{"resultType":"complete","taskId":"T1","status":"working","statusMessage":"half"}`)))),
		st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, notification(t, "notifications/tasks", raw(`{"taskId":"T1","status":"completed","result":{"content":[]}}`)))),
	)
	m := newTestModel(t, st, 140, 30)
	m.traffic.selectSeq(seqs[2]) // tasks/get
	m.syncSelection()
	var walked []uint64
	for range seqs {
		press(m, "l")
		f, _ := m.traffic.selected()
		walked = append(walked, f.Seq)
	}
	want := []uint64{seqs[3], seqs[4], seqs[0], seqs[1], seqs[2]}
	for i := range want {
		if walked[i] != want[i] || walked[i] == other {
			t.Fatalf("l walked %v, want %v", walked, want)
		}
	}
	press(m, "T")
	if s := screenText(m); !strings.Contains(s, "Tasks (1)") || !strings.Contains(s, "completed") || !strings.Contains(s, "#1 slow_compute") {
		t.Fatalf("Tasks view:\n%s", s)
	}
}

// Under a filter, l walks only the linked frames the traffic shows: after
// the Tasks view's l (the frames of the task's tools/call) it goes from
// the handle back to the call, not to a tasks/get the filter hides; with
// no other linked frame shown it says so and leaves the selection.
func TestLinkWalksOnlyFramesShown(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	call := st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "tools/call", raw(`{"name":"slow_compute"}`))))
	handle := st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, 1, raw(`{"resultType":"task","taskId":"T1","status":"working"}`))))
	st.Append(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 2, "tasks/get", raw(`{"taskId":"T1"}`))))
	st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, 2, raw(`{"resultType":"complete","taskId":"T1","status":"working"}`))))
	notice := st.Append(controlFrame(t, capture.In, c.next(), proto.EncJSON, notification(t, "notifications/tasks", raw(`{"taskId":"T1","status":"completed","result":{"content":[]}}`))))
	m := newTestModel(t, st, 140, 30)
	linkUnder(m, "#1", handle)
	if f, _ := m.traffic.selected(); f.Seq != call {
		t.Errorf("l under the filter #1 selected frame %d, want the tools/call %d", f.Seq, call)
	}
	linkUnder(m, "notifications/tasks", notice)
	if f, _ := m.traffic.selected(); f.Seq != notice {
		t.Errorf("l with no other linked frame shown selected frame %d, want it to stay on %d", f.Seq, notice)
	}
	if s := screenText(m); !strings.Contains(s, "hidden by the filter") {
		t.Errorf("the status line does not say the linked frames are hidden:\n%s", s)
	}
}

// linkUnder applies filter, selects frame seq and presses l.
func linkUnder(m *Model, filter string, seq uint64) {
	for cmd := m.applyFilter(filter); cmd != nil; {
		_, cmd = m.Update(cmd())
	}
	m.traffic.selectSeq(seq)
	m.syncSelection()
	press(m, "l")
}
