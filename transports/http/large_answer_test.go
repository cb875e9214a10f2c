package mcphttp

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
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
	f.answerCallWithEvents(events, "end")
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

// A 64 MiB answer of 64 KiB events, read with a capture store of 8 MiB,
// keeps the heap within a fraction of the answer: what the store lets go
// of, and the messages once delivered, free the buffers the events were
// read into; nothing but the store's budget stays. Every notification is
// delivered, then the answer.
func TestLargeAnswerMemoryBounded(t *testing.T) {
	const n = 1024
	note := event("", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`+strings.Repeat("0123456789abcdef", (64<<10-200)/16)+`"}}`)
	f := newFake(t)
	f.answerCallWithEvents(slices.Repeat([]string{note}, n), "")
	store := capture.NewStore(capture.Config{MaxBytes: 8 << 20})
	tr, err := New(config(f.URL(), store, &warnings{}, nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	var notes int
	answered := make(chan *jsonrpc.Message, 1)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	err = tr.Start(ctx, func(m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyMessage {
			notes++ // delivered in turn, one at a time
			return
		}
		answered <- m
	})
	if err != nil {
		t.Fatal(err)
	}
	heap := flowtest.SampleHeap(5 * time.Millisecond)
	if err := tr.Send(ctx, request(t, 3, mcp.MethodToolsCall, map[string]any{"name": "stream_logs"})); err != nil {
		t.Fatal(err)
	}
	var m *jsonrpc.Message
	select {
	case m = <-answered:
	case <-ctx.Done():
		t.Fatal("no answer")
	}
	peak := heap.Stop()
	t.Logf("%d MiB answered; peak HeapInuse %.1f MiB", n*len(note)>>20, float64(peak)/(1<<20))
	if !m.IsResponse() || notes != n {
		t.Fatalf("%d notifications of %d, then %s", notes, n, m.Describe())
	}
	if peak > 40<<20 {
		t.Errorf("peak HeapInuse %.1f MiB for a %d MiB answer and an 8 MiB store", float64(peak)/(1<<20), n*len(note)>>20)
	}
}
