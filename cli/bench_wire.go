package cli

import (
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// wireTimes is a capture sink that times requests on the wire: from the
// frame that carried a request out to the frame that brought its answer
// in, as the transport stamped them (just before the write, just after
// the read). bench's latencies come from it, so the engine's own work
// before the send and after the answer (and the wait for a goroutine to
// run on a busy machine) is not in them. It keeps no frame, and no more
// entries than requests in flight and answers not yet taken. The engine
// numbers its requests: ids that are not integers are not timed.
type wireTimes struct {
	mu      sync.Mutex
	entries map[int64]wireEntry
}

// wireEntry is one request's times: sent when it went out, took once its
// answer came in.
type wireEntry struct {
	sent     time.Time
	took     time.Duration
	answered bool
}

// maxWireEntries bounds what wireTimes holds should answers never be
// taken (requests the engine sends on its own behalf).
const maxWireEntries = 1 << 16

func newWireTimes() *wireTimes {
	return &wireTimes{entries: map[int64]wireEntry{}}
}

// ReleasesUnheld is true: no frame is kept.
func (*wireTimes) ReleasesUnheld() bool { return true }

// Append notes when a request went out and when its answer came in.
func (w *wireTimes) Append(f *capture.Frame) uint64 {
	m := f.Msg
	if m == nil || m.ID == nil || f.Chan.Kind != capture.Control {
		return 0
	}
	id, ok := m.ID.Int()
	if !ok {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case f.Dir == capture.Out && m.Method != "":
		if len(w.entries) >= maxWireEntries {
			clear(w.entries)
		}
		w.entries[id] = wireEntry{sent: f.Time}
	case f.Dir == capture.In && m.Method == "":
		if e, ok := w.entries[id]; ok && !e.answered {
			w.entries[id] = wireEntry{took: f.Time.Sub(e.sent), answered: true}
		}
	}
	return 0
}

// take returns, and forgets, how long the request id took on the wire;
// false when its answer was not seen.
func (w *wireTimes) take(id jsonrpc.ID) (time.Duration, bool) {
	n, ok := id.Int()
	if !ok {
		return 0, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.entries[n]
	delete(w.entries, n)
	return e.took, e.answered
}

// Rounds returns, and forgets, the wire time of the requests ids together;
// false when one of their answers was not seen (the transport shows no
// frames, or the call failed before an answer).
func (w *wireTimes) Rounds(ids []jsonrpc.ID) (time.Duration, bool) {
	var all time.Duration
	seen := len(ids) > 0
	for _, id := range ids {
		d, ok := w.take(id)
		all, seen = all+d, seen && ok
	}
	return all, seen
}
