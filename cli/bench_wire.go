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
// entries than requests in flight and answers not yet taken.
type wireTimes struct {
	mu   sync.Mutex
	sent map[jsonrpc.ID]time.Time
	took map[jsonrpc.ID]time.Duration
}

// maxWireEntries bounds what wireTimes holds should answers never be
// taken (requests the engine sends on its own behalf).
const maxWireEntries = 1 << 16

func newWireTimes() *wireTimes {
	return &wireTimes{sent: map[jsonrpc.ID]time.Time{}, took: map[jsonrpc.ID]time.Duration{}}
}

// ReleasesUnheld is true: no frame is kept.
func (*wireTimes) ReleasesUnheld() bool { return true }

// Append notes when a request went out and when its answer came in.
func (w *wireTimes) Append(f *capture.Frame) uint64 {
	m := f.Msg
	if m == nil || m.ID == nil || f.Chan.Kind != capture.Control {
		return 0
	}
	id := *m.ID
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case f.Dir == capture.Out && m.Method != "":
		if len(w.sent) >= maxWireEntries {
			clear(w.sent)
		}
		w.sent[id] = f.Time
	case f.Dir == capture.In && m.Method == "":
		if t0, ok := w.sent[id]; ok {
			delete(w.sent, id)
			if len(w.took) >= maxWireEntries {
				clear(w.took)
			}
			w.took[id] = f.Time.Sub(t0)
		}
	}
	return 0
}

// take returns, and forgets, how long the request id took on the wire;
// false when its answer was not seen.
func (w *wireTimes) take(id jsonrpc.ID) (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.sent, id)
	d, ok := w.took[id]
	delete(w.took, id)
	return d, ok
}

// rounds returns, and forgets, the wire time of the requests ids together;
// false when one of their answers was not seen (the transport shows no
// frames, or the call failed before an answer).
func (w *wireTimes) rounds(ids []jsonrpc.ID) (time.Duration, bool) {
	var all time.Duration
	seen := len(ids) > 0
	for _, id := range ids {
		d, ok := w.take(id)
		all, seen = all+d, seen && ok
	}
	return all, seen
}
