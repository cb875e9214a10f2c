package ws

import (
	"sync"
	"time"
)

// pongHold is how long writes may make no progress before the reader
// stops answering the server's WebSocket pings: a pong goes out behind
// the write under way, so answering would make the reader wait on a
// write the server does not take. RFC 6455 §5.5.3 lets an endpoint answer
// only the latest of several pings; the first ping after a write gets
// through is answered again.
const pongHold = time.Second

// writeClock tracks the writes under way and when one last got through.
type writeClock struct {
	mu       sync.Mutex
	under    int       // writes under way
	progress time.Time // when the writes under way began, or one of them ended
}

// begin notes a write starting.
func (w *writeClock) begin() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.under == 0 {
		w.progress = time.Now()
	}
	w.under++
}

// end notes a write ending.
func (w *writeClock) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.under--
	w.progress = time.Now()
}

// stuck reports whether writes are under way and none got through for
// longer than d.
func (w *writeClock) stuck(d time.Duration) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.under > 0 && time.Since(w.progress) > d
}

// answerPing reports a WebSocket ping from the server and says whether
// its pong may go out: not while writes are stuck (the reader would wait
// behind them).
func (t *Transport) answerPing(payload []byte) bool {
	t.reportControl(incoming, "ping", payload)
	if t.writes.stuck(pongHold) {
		t.reportControl(outgoing, "pong not sent (a write has made no progress for over "+pongHold.String()+")", payload)
		return false
	}
	t.reportControl(outgoing, "pong", payload)
	return true
}
