package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// listen keeps the standalone GET stream of a session open: the server's
// requests and notifications that belong to no POST come on it. A 405 says
// the server offers none. When the stream ends it is opened again after
// the server's retry (or a backoff), never under relistenFloor and longer
// while the stream keeps ending with no message, resuming after its last
// event id; it gives up after ResumeAttempts failures in a row. ready,
// when not nil, is closed once the first GET has its answer (or failed).
// ctx ends the stream (stopListening, or Close).
func (t *Transport) listen(ctx context.Context, ready chan struct{}) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	first := func() {
		if ready != nil {
			close(ready)
			ready = nil
		}
	}
	defer first()
	note, _ := jsonrpc.NewNotification("GET stream", nil)
	ex := &exchange{t: t, msg: note, ctx: ctx, cancel: cancel}
	failures, quiet := 0, 0
	for ctx.Err() == nil {
		ex.conn = t.connName("GET")
		carried := ex.carriedEvents()
		rsp, err := t.get(ctx, ex.conn, ex.lastEventID())
		first()
		switch {
		case err != nil:
			failures++
		case rsp.StatusCode == http.StatusMethodNotAllowed:
			rsp.Body.Close()
			t.reportNote(capture.In, ex.conn, "the server offers no standalone stream (405)")
			return
		case rsp.StatusCode != http.StatusOK || mediaType(rsp.Header) != "text/event-stream":
			t.drain(ex, rsp)
			rsp.Body.Close()
			failures++
			err = fmt.Errorf("the GET was answered %s", rsp.Status)
		default:
			err = t.readSSE(ex, ex.conn, capture.SSEStart{Kind: capture.SSEGet, After: ex.lastEventID()}, rsp.Body)
			if !errors.Is(err, io.EOF) || ex.lastEventID() == "" {
				failures++
			} else {
				failures = 0
			}
			rsp.Body.Close()
			err = errors.New(streamEnd(err))
		}
		if ctx.Err() != nil {
			return
		}
		if failures >= t.cfg.ResumeAttempts {
			t.warnf("the standalone GET stream failed %d times in a row; the server's own requests and notifications now come only with answers (%v)", failures, err)
			return
		}
		if ex.carriedEvents() > carried {
			quiet = 0
		} else {
			quiet++
		}
		if !t.sleep(ctx, ex.relistenWait(failures, quiet, t.cfg.RetryCap)) {
			return
		}
	}
}

// relistenFloor is the shortest wait before the standalone GET stream is
// opened again, whatever retry the server set: a server that ends the
// stream at once, again and again, is not met with a storm of GETs.
const relistenFloor = 100 * time.Millisecond

// relistenWait is the wait before the standalone GET stream is opened
// again, after failures failed streams in a row and quiet streams in a
// row that carried no message: the server's retry (capped) or the
// backoff of the failures, at least relistenFloor, and at least the
// backoff of the quiet streams, so that a server which ends the stream
// cleanly with nothing to say is asked less and less often, down to one
// GET per cap.
func (ex *exchange) relistenWait(failures, quiet int, cap time.Duration) time.Duration {
	wait := max(ex.retryWait(max(failures, 1), cap), relistenFloor)
	if quiet > 0 {
		wait = max(wait, backoff(quiet, cap))
	}
	return wait
}

// carriedEvents counts the events that carried data on the stream so far.
func (ex *exchange) carriedEvents() int {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.carried
}

// listenWait bounds the wait for the standalone GET stream's answer before
// notifications/initialized goes out.
const listenWait = 2 * time.Second

// listenEarly opens the standalone GET stream of a session before
// notifications/initialized goes out, and waits (at most listenWait, and
// no longer than ctx) for its answer, so that a server which sends its
// first requests (roots/list) the moment it is initialized finds the
// stream open. A server that refuses the GET before initialized gets it
// again after, by the stream's own retries.
func (t *Transport) listenEarly(ctx context.Context) {
	t.mu.Lock()
	open := t.session != "" && t.legacy == nil && t.cfg.Mode != ModeTools
	t.mu.Unlock()
	if !open {
		return
	}
	ready := make(chan struct{})
	if !t.openListen(ready) {
		return
	}
	tm := time.NewTimer(listenWait)
	defer tm.Stop()
	select {
	case <-ready:
	case <-ctx.Done():
	case <-tm.C:
	}
}

// openListen opens the standalone GET stream of the session unless it was
// asked for already; ready is as for listen. It reports whether it opened
// one.
func (t *Transport) openListen(ready chan struct{}) bool {
	t.mu.Lock()
	if t.getStop != nil {
		t.mu.Unlock()
		return false
	}
	ctx, stop := context.WithCancel(t.ctx)
	t.getStop = stop
	t.mu.Unlock()
	if !t.spawn(func() { t.listen(ctx, ready) }) {
		stop()
		return false
	}
	return true
}

// stopListening ends the standalone GET stream of a session the server
// forgot, so that the new session opens one of its own (with no
// Last-Event-ID of the old one).
func (t *Transport) stopListening() {
	t.mu.Lock()
	stop := t.getStop
	t.getStop = nil
	t.mu.Unlock()
	if stop != nil {
		stop()
	}
}
