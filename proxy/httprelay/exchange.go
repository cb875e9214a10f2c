package httprelay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
)

// exchange is one request of the host and its answer: the host's side of
// the relay. It is the proxy.Carrier of the messages of that request:
// Pass and Send toward the server post a body upstream in the host's
// place, toward the host they write to the host's response.
type exchange struct {
	r    *Relay
	conn string
	// session is the host's Mcp-Session-Id ("" before it has one, or
	// with a server that gives none): the messages of the exchange and
	// their answers belong to that host's session (proxy.Hop.Session).
	session string
	// endpoint is the session a legacy stream's endpoint event named,
	// while the stream lasts (set and read by the exchange's goroutine).
	endpoint string
	req      *http.Request // the host's request
	w        http.ResponseWriter
	rc       *http.ResponseController

	mu       sync.Mutex
	header   http.Header // the server's response headers, to go to the host
	status   int         // the server's status, 0 before its answer
	started  bool        // the host's response head went
	stream   bool        // the host's answer is an event stream
	cancel   context.CancelFunc
	answered bool // the server's answer was relayed (or failed)
	headTold bool // the request's head is captured already

	// broken says the host's connection must end broken. It is no field
	// under mu: Cut sets it while a write to a host that does not read
	// may hold mu.
	broken atomic.Bool
}

// Pass carries h on unchanged: a host's message goes to the server, a
// server's to the host.
func (ex *exchange) Pass(ctx context.Context, h proxy.Hop) error {
	if h.Dir == capture.Out {
		return ex.post(ctx, h.Raw)
	}
	return ex.raw(ctx, h.Raw)
}

// Send carries a body the proxy made or changed: toward the server it is
// posted in place of the host's, toward the host it is the answer (an
// event of its stream when the answer is already a stream).
func (ex *exchange) Send(ctx context.Context, dir capture.Dir, body []byte) error {
	if dir == capture.Out {
		return ex.post(ctx, body)
	}
	ex.mu.Lock()
	stream := ex.stream
	ex.mu.Unlock()
	if stream {
		return ex.raw(ctx, sseEvent(body))
	}
	return ex.raw(ctx, body)
}

// Cut ends the host's connection on purpose. It does not wait for a
// write to the host under way: that write's deadline is made now, so
// that a host that does not read cannot hold the cut up.
func (ex *exchange) Cut(reason string) {
	ex.broken.Store(true)
	ex.r.tap.note(capture.In, ex.conn, "the proxy cut the host's connection: "+reason, nil)
	if ex.cancel != nil {
		ex.cancel()
	}
	if ex.rc != nil {
		_ = ex.rc.SetWriteDeadline(time.Now())
	}
}

// raw writes b to the host's response as it is, and flushes it.
func (ex *exchange) raw(_ context.Context, b []byte) error {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.startLocked()
	if _, err := ex.w.Write(b); err != nil {
		return fmt.Errorf("writing to the host: %w", err)
	}
	if err := ex.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("writing to the host: %w", err)
	}
	return nil
}

// startLocked writes the host's response head once: the server's status
// and headers, or 200 when nothing came from the server.
func (ex *exchange) startLocked() {
	if ex.started {
		return
	}
	ex.started = true
	for k, vs := range ex.header {
		ex.w.Header()[k] = vs
	}
	status := ex.status
	if status == 0 {
		status = http.StatusOK
	}
	ex.w.WriteHeader(status)
}

// post sends body to the server in the host's request's place and relays
// the answer back to the host.
func (ex *exchange) post(ctx context.Context, body []byte) error {
	ex.mu.Lock()
	if ex.answered {
		ex.mu.Unlock()
		// A duplicate of the host's message: it goes on a request of its
		// own, its answer kept from the host, whose request was answered.
		return ex.r.postAside(ctx, ex.req, body)
	}
	ex.answered = true
	ex.mu.Unlock()
	return ex.r.forward(ctx, ex, body)
}

// sseEvent is body as one event of type message.
func sseEvent(body []byte) []byte {
	var b bytes.Buffer
	b.WriteString("event: message\n")
	for _, l := range bytes.Split(line(body), []byte("\n")) {
		b.WriteString("data: ")
		b.Write(l)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}
