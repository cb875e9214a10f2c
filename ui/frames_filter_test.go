package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// After w (a request's frames), the requests the user sends next show in
// the traffic beside it, with their answers; the server's other traffic
// stays out until esc clears the filter.
func TestRequestFramesShowWhatIsSentNext(t *testing.T) {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, msg *proto.Message) {
		st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, msg))
	}
	add(capture.Out, request(t, 7, "tools/call", map[string]any{"name": "echo"}))
	add(capture.In, result(t, 7, map[string]any{}))
	m := newTestModel(t, st, 140, 40)
	driver{m}.ShowFrames(proto.IntID(7))
	m.Update(refreshMsg{at: t0})
	add(capture.In, notification(t, "notifications/message", map[string]any{"level": "info"}))
	add(capture.Out, request(t, 9, "tools/call", map[string]any{"name": "add"}))
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
