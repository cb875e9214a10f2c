package ws

import (
	"sync"
	"time"
)

// stallGrace is how long a write may stay under way (queued for the
// library's write lock or writing) before the writes count as stuck.
const stallGrace = 50 * time.Millisecond

// writeCount follows the writes under way. While one of them has been
// under way for over stallGrace, the reader does not answer the server's
// WebSocket pings: a pong goes out behind that write, and the WebSocket
// library waits for it on the reader (up to 5 s, then it fails the
// connection), so answering would make the reader wait on a write the
// server is not taking. Writes that each end quickly (a steady upload,
// many answers going out) are not stuck, so a server's keepalive pings are
// answered through them. RFC 6455 §5.5.3 lets an endpoint answer only the
// latest of several pings; the first ping once no write is old is
// answered.
type writeCount struct {
	mu    sync.Mutex
	next  uint64
	since map[uint64]time.Time // when each write under way began
	now   func() time.Time
}

// begin notes a write starting and returns what end takes.
func (w *writeCount) begin() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.since == nil {
		w.since = make(map[uint64]time.Time)
	}
	w.next++
	w.since[w.next] = w.clock()
	return w.next
}

// end notes the write begin returned id for ending.
func (w *writeCount) end(id uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.since, id)
}

// stuck reports whether a write has been under way for over stallGrace.
func (w *writeCount) stuck() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.clock()
	for _, began := range w.since {
		if now.Sub(began) > stallGrace {
			return true
		}
	}
	return false
}

func (w *writeCount) clock() time.Time {
	if w.now != nil {
		return w.now()
	}
	return time.Now()
}

// answerPing reports a WebSocket ping from the server and says whether
// its pong may go out: not while the writes under way are stuck (the
// reader would wait behind them).
func (t *Transport) answerPing(payload []byte) bool {
	t.reportControl(incoming, "ping", payload)
	if t.writes.stuck() {
		t.reportControl(outgoing, "pong not sent (mcpscope's writes are stuck; the next ping is answered once they move)", payload)
		return false
	}
	t.reportControl(outgoing, "pong", payload)
	return true
}
