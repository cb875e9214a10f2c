package ws

import (
	"sync"
	"time"
)

// stallGrace is how long the writes under way may go without one of them
// ending before they count as stuck.
const stallGrace = 50 * time.Millisecond

// writeCount follows the writes under way. While they are stuck (none
// ended for stallGrace), the reader does not answer the server's
// WebSocket pings: a pong goes out behind the write under way, and the
// WebSocket library waits for it on the reader (up to 5 s, then it fails
// the connection), so answering would make the reader wait on a write the
// server is not taking. Writes that keep ending (a steady upload, many
// answers going out) are not stuck, so a server's keepalive pings are
// answered through them. RFC 6455 §5.5.3 lets an endpoint answer only the
// latest of several pings; the first ping once the writes move again is
// answered.
type writeCount struct {
	mu    sync.Mutex
	under int       // writes under way
	moved time.Time // when a write last ended, or the first of those under way began
	now   func() time.Time
}

// begin notes a write starting.
func (w *writeCount) begin() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.under == 0 {
		w.moved = w.clock()
	}
	w.under++
}

// end notes a write ending.
func (w *writeCount) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.under--
	w.moved = w.clock()
}

// stuck reports whether writes are under way and none ended for
// stallGrace.
func (w *writeCount) stuck() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.under > 0 && w.clock().Sub(w.moved) > stallGrace
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
