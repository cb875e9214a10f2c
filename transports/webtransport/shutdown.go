package webtransport

import (
	"context"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Close ends the session gracefully: it sends $/shutdown (then FIN on the
// control stream), waits up to DrainTimeout for the execution streams being
// read, and those the results refer to, to finish, gives the server a
// couple of round trips (at most ShutdownGrace) to read $/shutdown and
// close the session, then closes it itself. It waits until
// the connection is gone; Err is nil afterwards unless the connection had
// failed before. Close is idempotent.
func (t *Transport) Close() error {
	started := t.life.Close()
	t.mu.Lock()
	sess := t.sess
	t.mu.Unlock()
	if !started || sess == nil {
		t.finish(nil)
		<-t.life.Done()
		return nil
	}
	t.drainAndClose(true)
	<-t.life.Done()
	return nil
}

// drainAndClose runs the shutdown once, whoever asks first: the client
// (byClient: it sends $/shutdown) or the server's $/shutdown. Streams go on
// being read, and checked against the requests, while they drain.
func (t *Transport) drainAndClose(byClient bool) {
	t.shutdown.Do(func() {
		if !byClient {
			t.life.Fail(ErrServerShutdown)
		}
		t.mu.Lock()
		sess, control, sentFirst, rtt := t.sess, t.control, t.sentFirst, t.initRTT
		t.mu.Unlock()
		if byClient && sentFirst {
			t.sendShutdown()
			_ = control.Close() // FIN: $/shutdown is the last frame
		}
		drain, cancel := context.WithTimeout(sess.Context(), t.cfg.DrainTimeout)
		t.table.drain(drain)
		cancel()
		if byClient && sentFirst {
			// Closing at once could reset the control stream before the
			// server has read $/shutdown: give it a couple of round trips
			// (a server that closes after its own drain ends the wait).
			grace := time.NewTimer(closeGrace(rtt, t.cfg.ShutdownGrace))
			select {
			case <-sess.Context().Done():
			case <-grace.C:
			}
			grace.Stop()
		}
		_ = sess.CloseWithError(sessionCodeShutdown, "shutdown")
	})
}

// serverShutdown acts on the server's first $/shutdown, on its own
// goroutine; later ones are counted and ignored, so that a flood of them
// costs no goroutine each.
func (t *Transport) serverShutdown() {
	if t.shutdowns.Add(1) == 1 {
		go t.drainAndClose(false)
	}
}

// Ignored counts the control messages of the server the transport ignored
// to stay within its limits.
type Ignored struct {
	// StreamErrors are the $/streamError that named a request not in
	// flight, a stream never opened nor referred to (past a few before the
	// answer), a stream past MaxStreamsPerRequest, or repeated one.
	StreamErrors uint64
	// Shutdowns are the $/shutdown after the first.
	Shutdowns uint64
}

// Ignored returns what the transport ignored so far.
func (t *Transport) Ignored() Ignored {
	return Ignored{StreamErrors: t.table.ignoredReports(), Shutdowns: max(t.shutdowns.Load(), 1) - 1}
}

// minCloseGrace is the least wait for the server to read $/shutdown.
const minCloseGrace = 20 * time.Millisecond

// closeGrace is how long the client waits for the server to close after
// $/shutdown: two round trips of the initialize exchange, at least
// minCloseGrace, at most limit (also when the round trip is unknown).
func closeGrace(rtt, limit time.Duration) time.Duration {
	if rtt <= 0 {
		return limit
	}
	return min(max(2*rtt, minCloseGrace), limit)
}

// sendShutdown sends $/shutdown, bounded by ShutdownGrace.
func (t *Transport) sendShutdown() {
	msg, err := jsonrpc.NewNotification(MethodShutdown, nil)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.ShutdownGrace)
	defer cancel()
	_ = t.send(ctx, msg)
}
