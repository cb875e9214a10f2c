package mcphttp

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
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
// holds only a fraction of the answer at any point: what the store lets
// go of, and the messages once delivered, free the buffers the events
// were read into; nothing but the store's budget stays. The heap is
// weighed after a full collection while a notification is being
// delivered (delivery is in turn, so the reader waits), at three points
// past the store's budget: what is reachable then is what the transport
// keeps, whatever the collector's pace on a loaded machine. Every
// notification is delivered, then the answer.
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
	weighed := map[int]uint64{512: 0, 768: 0, 1000: 0}
	answered := make(chan *jsonrpc.Message, 1)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	err = tr.Start(ctx, func(m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyMessage {
			notes++ // delivered in turn, one at a time
			if _, ok := weighed[notes]; ok {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				weighed[notes] = ms.HeapAlloc
			}
			return
		}
		answered <- m
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Send(ctx, request(t, 3, mcp.MethodToolsCall, map[string]any{"name": "stream_logs"})); err != nil {
		t.Fatal(err)
	}
	var m *jsonrpc.Message
	select {
	case m = <-answered:
	case <-ctx.Done():
		t.Fatal("no answer")
	}
	if !m.IsResponse() || notes != n {
		t.Fatalf("%d notifications of %d, then %s", notes, n, m.Describe())
	}
	points := slices.Sorted(maps.Keys(weighed))
	for _, at := range points {
		held := int64(weighed[at]) - int64(before.HeapAlloc)
		t.Logf("after %d of %d notifications (%d MiB read): heap %.1f MiB, %+.1f MiB on the start", at, n, at*len(note)>>20, float64(weighed[at])/(1<<20), float64(held)/(1<<20))
		if held > 24<<20 {
			t.Errorf("%.1f MiB held after %d MiB of answer read with an 8 MiB store", float64(held)/(1<<20), at*len(note)>>20)
		}
	}
	// Between the first and the last weighing 30 MiB more of the answer
	// was read; what the transport keeps of it does not grow with it.
	first, last := points[0], points[len(points)-1]
	if grew := int64(weighed[last]) - int64(weighed[first]); grew > 4<<20 {
		t.Errorf("the heap grew %.1f MiB from notification %d to %d (%d MiB read), with the store already full", float64(grew)/(1<<20), first, last, (last-first)*len(note)>>20)
	}
}
