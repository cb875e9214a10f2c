package mcphttp

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A large SSE answer, notifications of 100 bytes to 150 KiB then the
// response, is captured and delivered whole and in order: every event a
// frame holding its exact bytes and its message, every message delivered
// with its params; and all of it is still intact once the whole answer is
// read, so the buffers the events were read into were never written again.
func TestLargeAnswerKeptWhole(t *testing.T) {
	const n = 240
	events, params := make([]string, n), make([]string, n)
	for i := range n {
		text := strings.Repeat(string(rune('a'+i%26)), []int{100, 20 << 10, 64<<10 - 300, 150 << 10}[i%4])
		params[i] = fmt.Sprintf(`{"level":"info","data":"%d %s"}`, i, text)
		events[i] = event(fmt.Sprint(i+1), `{"jsonrpc":"2.0","method":"notifications/message","params":`+params[i]+`}`)
	}
	f := newFake(t)
	f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, _ *http.Request, m *jsonrpc.Message) {
		put := openSSE(w)
		for _, e := range events {
			put(e)
		}
		put(event("end", resultOf(m, `{"content":[]}`)))
	})
	r := newRig(t, f.URL(), nil)
	r.send(t, request(t, 3, mcp.MethodToolsCall, map[string]any{"name": "stream_logs"}))
	var got []*jsonrpc.Message
	for range n + 1 {
		got = append(got, r.in.next(t))
	}
	for i, m := range got[:n] {
		if m.Method != mcp.MethodNotifyMessage || string(m.Params) != params[i] {
			t.Fatalf("message %d: %s with params %.60q…, want params %.60q…", i, m.Method, m.Params, params[i])
		}
	}
	if !got[n].IsResponse() {
		t.Fatalf("the last message delivered is %s, not the answer", got[n].Describe())
	}
	frames := r.frames(func(f *capture.Frame) bool { return f.Dir == capture.In && f.Chan.Kind == capture.Control })
	if len(frames) != n+1 {
		t.Fatalf("%d event frames, want %d", len(frames), n+1)
	}
	for i, f := range frames[:n] {
		if string(f.Raw) != events[i] || f.Size != len(events[i]) || f.Msg == nil || string(f.Msg.Params) != params[i] {
			t.Fatalf("frame %d (Seq %d): %d bytes %.60q…, want %d bytes %.60q…", i, f.Seq, len(f.Raw), f.Raw, len(events[i]), events[i])
		}
		if i > 0 && f.Seq <= frames[i-1].Seq {
			t.Fatalf("frame %d has Seq %d after %d", i, f.Seq, frames[i-1].Seq)
		}
	}
}
