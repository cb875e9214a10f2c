package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// After w (a request's frames), the requests the user sends next show in
// the traffic beside it, with their answers; the server's other traffic
// stays out until esc clears the filter.
func TestRequestFramesShowWhatIsSentNext(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, msg *jsonrpc.Message) {
		st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, msg))
	}
	add(capture.Out, request(t, 7, "tools/call", map[string]any{"name": "echo"}))
	add(capture.In, result(t, 7, map[string]any{}))
	m := newTestModel(t, st, 140, 40)
	driver{m}.ShowFrames(jsonrpc.IntID(7))
	m.Update(refreshMsg{at: t0})
	add(capture.In, notification(t, "notifications/message", map[string]any{"level": "info"}))
	add(capture.Out, request(t, 9, "tools/call", map[string]any{"name": "add", "_meta": map[string]any{"progressToken": 9}}))
	add(capture.In, result(t, 9, map[string]any{}))
	m.Update(refreshMsg{at: t0})
	var methods []string
	src := m.traffic.source()
	for i := range src.count() {
		f, _ := st.Get(src.seqAt(i))
		methods = append(methods, frameID(f)+" "+f.Msg.Method)
	}
	if got := strings.Join(methods, ", "); got != "7 tools/call, 7 , 9 tools/call, 9 " {
		t.Errorf("the traffic after w shows %q", got)
	}
	if title := m.traffic.Title(); !strings.Contains(title, `filter "#7 #9"`) {
		t.Errorf("title %q", title)
	}
}

// The view of a request's frames (w) shows the server requests that came
// while it ran and their answers, never the client's own request with the
// same number, and takes in only the requests the user drives next (the UI
// asks progress on those), not the ones the UI sends on its own.
func TestRequestFramesFollowTheCall(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, msg *jsonrpc.Message) {
		st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, msg))
	}
	driven := func(id int64) map[string]any {
		return map[string]any{"name": "sampleLLM", "_meta": map[string]any{"progressToken": id}}
	}
	add(capture.Out, request(t, 1, "tools/list", nil))
	add(capture.In, result(t, 1, map[string]any{"tools": []any{}}))
	add(capture.Out, request(t, 2, "tools/call", driven(2)))
	add(capture.In, request(t, 1, "sampling/createMessage", map[string]any{"maxTokens": 10}))
	add(capture.Out, result(t, 1, map[string]any{"role": "assistant"}))
	add(capture.In, result(t, 2, map[string]any{}))
	m := newTestModel(t, st, 140, 40)
	m.Update(refreshMsg{at: t0})
	driver{m}.ShowFrames(jsonrpc.IntID(2))
	m.Update(refreshMsg{at: t0})
	add(capture.Out, request(t, 3, "resources/list", nil))
	add(capture.In, result(t, 3, map[string]any{"resources": []any{}}))
	add(capture.Out, request(t, 4, "tools/call", driven(4)))
	add(capture.In, result(t, 4, map[string]any{}))
	m.Update(refreshMsg{at: t0})
	var shown []string
	src := m.traffic.source()
	for i := range src.count() {
		f, _ := st.Get(src.seqAt(i))
		shown = append(shown, f.Dir.String()+frameID(f)+" "+f.Msg.Method)
	}
	want := []string{capture.Out.String() + "2 tools/call", capture.In.String() + "1 sampling/createMessage",
		capture.Out.String() + "1 ", capture.In.String() + "2 ", capture.Out.String() + "4 tools/call", capture.In.String() + "4 "}
	if strings.Join(shown, ", ") != strings.Join(want, ", ") {
		t.Errorf("the traffic after w shows\n%q\nwant\n%q", shown, want)
	}

	// The client's request 1 is not the server's request 1.
	driver{m}.ShowFrames(jsonrpc.IntID(1))
	m.Update(refreshMsg{at: t0})
	src = m.traffic.source()
	for i := range src.count() {
		if f, _ := st.Get(src.seqAt(i)); f.Msg.Method == "sampling/createMessage" || (f.Dir == capture.Out && f.Msg.IsResponse()) {
			t.Errorf("the frames of the client's request 1 show the server's request 1: %s %s", f.Dir, f.Msg.Method)
		}
	}
}
