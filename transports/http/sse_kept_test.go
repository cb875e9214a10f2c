package mcphttp

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A large SSE answer whose events fit the store's budget is captured
// whole: every event a frame of its exact bytes, none stripped, though
// each message's params are a slice of the bytes the event was read into
// (they are counted once), and every message is delivered in order.
func TestSSEAnswerKeptWholeWithinBudget(t *testing.T) {
	const notes, text = 48, 64 << 10
	events := make([]string, notes)
	var total int64
	for i := range events {
		data := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"%d %s"}}`,
			i, strings.Repeat("x", text))
		events[i] = "event: message\n" + event("", data)
		total += int64(len(events[i]))
	}
	f := newFake(t)
	f.answerCallWithEvents(events, "")
	// Room for the events' bytes and their metadata, not for the bytes twice.
	store := capture.NewStore(capture.Config{MaxBytes: total + total/4})
	r := newRigOf(t, f.URL(), store, func(c *Config) { c.Mode = ModeStreamable })
	r.send(t, request(t, 1, mcp.MethodToolsCall, map[string]any{"name": "logs"}))
	for i := range notes {
		m := r.in.next(t)
		if m.Method != mcp.MethodNotifyMessage || !bytes.Contains(m.Params, fmt.Appendf(nil, `"data":"%d x`, i)) {
			t.Fatalf("message %d delivered: %s %.60s", i, m.Method, m.Params)
		}
	}
	if m := r.in.next(t); !m.IsResponse() {
		t.Fatalf("after the notifications: %s, want the answer", m.Describe())
	}
	st := store.Stats()
	if st.Stripped != 0 || st.Evicted != 0 {
		t.Fatalf("Stats = %+v: the store dropped bytes of an answer within its budget of %d", st, total+total/4)
	}
	var got []string
	for _, fr := range store.Window(1, store.Len()) {
		if fr.Dir == capture.In && fr.Msg != nil && fr.Msg.Method == mcp.MethodNotifyMessage {
			if fr.Kept != fr.Size || fr.Size != len(fr.Raw) {
				t.Fatalf("frame %d kept %d of %d bytes", fr.Seq, fr.Kept, fr.Size)
			}
			got = append(got, string(fr.Raw))
		}
	}
	if len(got) != notes {
		t.Fatalf("%d notification frames, want %d", len(got), notes)
	}
	for i := range got {
		if got[i] != events[i] {
			t.Fatalf("frame of event %d: %.40q…, want the event's exact bytes %.40q…", i, got[i], events[i])
		}
	}
}
