package cli

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// The wire sink times a request from its frame out to its answer's frame
// in, as stamped; a server's own request, a notification and an answer
// nobody sent are not timed; a taken time is forgotten.
func TestBenchWireTimes(t *testing.T) {
	t.Parallel()
	w := newWireTimes()
	t0 := time.Unix(1000, 0)
	frame := func(dir capture.Dir, at time.Duration, m *jsonrpc.Message) *capture.Frame {
		return &capture.Frame{Dir: dir, Time: t0.Add(at), Chan: capture.Channel{Kind: capture.Control}, Msg: m}
	}
	id := func(n int64) *jsonrpc.ID { v := jsonrpc.IntID(n); return &v }
	w.Append(frame(capture.Out, 0, &jsonrpc.Message{ID: id(1), Method: "tools/call"}))
	w.Append(frame(capture.Out, time.Millisecond, &jsonrpc.Message{ID: id(2), Method: "tools/call"}))
	w.Append(frame(capture.In, 2*time.Millisecond, &jsonrpc.Message{ID: id(1), Method: "roots/list"})) // the server asks
	w.Append(frame(capture.In, 3*time.Millisecond, &jsonrpc.Message{Method: "notifications/message"}))
	w.Append(frame(capture.In, 5*time.Millisecond, &jsonrpc.Message{ID: id(1), Result: []byte(`{}`)}))
	w.Append(frame(capture.In, 6*time.Millisecond, &jsonrpc.Message{ID: id(9), Result: []byte(`{}`)}))
	w.Append(frame(capture.In, 9*time.Millisecond, &jsonrpc.Message{ID: id(2), Error: &jsonrpc.Error{Code: -1}}))

	if d, ok := w.Rounds([]jsonrpc.ID{*id(1)}); !ok || d != 5*time.Millisecond {
		t.Errorf("id 1: %s %v, want 5ms", d, ok)
	}
	if d, ok := w.Rounds([]jsonrpc.ID{*id(2)}); !ok || d != 8*time.Millisecond {
		t.Errorf("id 2: %s %v, want 8ms", d, ok)
	}
	for _, n := range []int64{1, 9} {
		if _, ok := w.Rounds([]jsonrpc.ID{*id(n)}); ok {
			t.Errorf("id %d timed again, or an answer nobody sent timed", n)
		}
	}
	if len(w.entries) != 0 {
		t.Errorf("%d entries left", len(w.entries))
	}
}
