package ws

import "sync/atomic"

// writeCount counts the writes under way. While any is, the reader does
// not answer the server's WebSocket pings: a pong goes out behind the
// write under way, and the WebSocket library waits for it on the reader
// (up to 5 s, then it fails the connection), so answering would make the
// reader wait on a write the server may not take. RFC 6455 §5.5.3 lets an
// endpoint answer only the latest of several pings; the first ping once
// no write is under way is answered again.
type writeCount struct{ under atomic.Int64 }

// begin notes a write starting.
func (w *writeCount) begin() { w.under.Add(1) }

// end notes a write ending.
func (w *writeCount) end() { w.under.Add(-1) }

// busy reports whether a write is under way.
func (w *writeCount) busy() bool { return w.under.Load() > 0 }

// answerPing reports a WebSocket ping from the server and says whether
// its pong may go out: not while a write is under way (the reader would
// wait behind it).
func (t *Transport) answerPing(payload []byte) bool {
	t.reportControl(incoming, "ping", payload)
	if t.writes.busy() {
		t.reportControl(outgoing, "pong not sent (a write is under way; the next ping is answered once none is)", payload)
		return false
	}
	t.reportControl(outgoing, "pong", payload)
	return true
}
