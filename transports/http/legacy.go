package mcphttp

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// legacyWait bounds the wait for the endpoint event when falling back.
const legacyWait = 30 * time.Second

// legacyLink is the HTTP+SSE transport of 2024-11-05: one GET stream
// carries every message of the server; its endpoint event names the URL
// the client POSTs to.
type legacyLink struct {
	ready    chan struct{} // closed once endpoint or err is set
	once     sync.Once
	endpoint *url.URL
	session  string // the session the endpoint names (legacySession)
	err      error
	stop     context.CancelFunc // closes the stream
}

// settle records the endpoint and the session it names, or why there is
// none, once.
func (l *legacyLink) settle(endpoint *url.URL, err error) {
	l.once.Do(func() {
		l.endpoint, l.session, l.err = endpoint, legacySession(endpoint), err
		close(l.ready)
	})
}

// openLegacy opens the SSE stream and waits, at most until ctx ends, for
// its endpoint event. A stream that names no usable endpoint is closed.
func (t *Transport) openLegacy(ctx context.Context) error {
	// The stream outlives Start, but its set-up is Start's: an
	// authorization it meets pauses Start's limit (client.CarryStart).
	sctx, stop := context.WithCancel(client.CarryStart(t.ctx, ctx))
	l := &legacyLink{ready: make(chan struct{}), stop: stop}
	if !t.spawn(func() { t.runLegacy(sctx, l) }) {
		stop()
		return t.life.Gone()
	}
	select {
	case <-l.ready:
		if l.err != nil {
			stop()
			return l.err
		}
	case <-ctx.Done():
		stop()
		if limit := client.StartLimit(ctx); limit != nil {
			return fmt.Errorf("the legacy SSE stream of GET %s sent no endpoint event %w", t.url.Redacted(), limit)
		}
		return fmt.Errorf("the legacy SSE stream of GET %s sent no endpoint event: %w", t.url.Redacted(), context.Cause(ctx))
	}
	t.mu.Lock()
	t.legacy = l
	t.mu.Unlock()
	return nil
}

// runLegacy reads the SSE stream until it ends, which ends the transport
// (the legacy transport cannot resume a session), unless the stream was
// given up before it served.
func (t *Transport) runLegacy(ctx context.Context, l *legacyLink) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	note, _ := jsonrpc.NewNotification("SSE stream", nil)
	ex := &exchange{t: t, msg: note, ctx: ctx, cancel: cancel, conn: t.connName("GET")}
	ex.onEndpoint = func(data string) error {
		u, err := httphead.LegacyEndpoint(t.url, data)
		l.settle(u, err)
		return err
	}
	rsp, err := t.get(ctx, ex.conn, "")
	if err != nil {
		l.settle(nil, err)
		return
	}
	defer rsp.Body.Close()
	if rsp.StatusCode != http.StatusOK || mediaType(rsp.Header) != "text/event-stream" {
		t.drain(ex, rsp)
		l.settle(nil, fmt.Errorf("GET %s for the SSE stream was answered %s, %q", t.url.Redacted(), rsp.Status, rsp.Header.Get("Content-Type")))
		return
	}
	err = t.readSSE(ex, ex.conn, capture.SSEStart{Kind: capture.SSELegacy}, rsp.Body)
	l.settle(nil, fmt.Errorf("the SSE stream ended before its endpoint event (%s)", streamEnd(err)))
	if ctx.Err() == nil {
		go t.end(fmt.Errorf("the SSE stream of GET %s ended (%s); the legacy HTTP+SSE transport cannot resume a session", t.url.Redacted(), streamEnd(err)))
	}
}

// legacySession is the session a legacy endpoint names: HTTP+SSE has no
// session header, and the servers name the session in the endpoint's
// query instead, as sessionId (the TypeScript SDK, mcp-go) or sessionid
// (the Go SDK). "" when it names none.
func legacySession(endpoint *url.URL) string {
	if endpoint == nil {
		return ""
	}
	q := endpoint.Query()
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if strings.EqualFold(k, "sessionId") && q.Get(k) != "" {
			return q.Get(k)
		}
	}
	return ""
}

// legacyEndpoint is where to POST in the legacy transport, or nil when
// the transport speaks Streamable HTTP.
func (t *Transport) legacyEndpoint() *url.URL {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.legacy == nil {
		return nil
	}
	return t.legacy.endpoint
}

// fallbackTry is the one move to the legacy transport a session makes:
// done is closed once it settled, err says why it failed.
type fallbackTry struct {
	done chan struct{}
	err  error
}

// fallBack moves to the legacy transport when the first POST of the
// session (initialize or server/discover) is refused with 400, 404 or 405
// and no JSON-RPC answer, and sends the message again there. It reports
// whether it did; when the SSE stream cannot be opened either, it stays.
// A handshake POST refused while the move is under way (the initialize
// sent after server/discover timed out) waits for it and takes its
// outcome: sent again on the legacy transport, or failed with why the
// legacy transport did not come up.
//
// Only a POST to the Streamable HTTP URL falls back or waits: one already
// sent to the legacy endpoint and refused there is that endpoint's answer,
// and sending it again would loop.
func (t *Transport) fallBack(ex *exchange, status int) bool {
	if t.cfg.Mode != ModeAuto || !httphead.LegacyFallbackStatus(status) || ex.target != nil ||
		(ex.msg.Method != mcp.MethodInitialize && ex.msg.Method != mcp.MethodDiscover) {
		return false
	}
	t.mu.Lock()
	try, first := t.fallback, !t.probed && t.legacy == nil && t.fallback == nil
	if first {
		try = &fallbackTry{done: make(chan struct{})}
		t.fallback = try
	}
	t.probed = true
	limit := t.startTime
	t.mu.Unlock()
	if try == nil {
		return false
	}
	ctx := ex.ctx
	if first {
		t.warnf("POST %s was answered %d with no JSON-RPC answer: trying the legacy HTTP+SSE transport (2024-11-05) with GET", t.url.Redacted(), status)
		// The move is the transport's set-up, bounded as Start is (the
		// request limits), and given up with the request that led to it.
		var cancel context.CancelFunc
		if limit != nil {
			ctx, cancel = client.BoundStart(ex.ctx, limit)
		} else {
			ctx, cancel = context.WithTimeout(ex.ctx, legacyWait)
		}
		try.err = t.openLegacy(ctx)
		cancel()
		close(try.done)
		if try.err != nil {
			t.reportNote(capture.In, ex.conn, "no legacy HTTP+SSE fallback: "+try.err.Error())
			return false
		}
		t.reportNote(capture.In, ex.conn, "fell back to the legacy HTTP+SSE transport")
		ctx = ex.ctx
	} else {
		select {
		case <-try.done:
		case <-ex.ctx.Done():
			return false
		}
		if try.err != nil {
			ex.fail(status, try.err)
			return true
		}
	}
	again := t.newExchange(ex.msg, ex.body)
	if err := again.start(ctx); err != nil {
		ex.fail(0, err)
	}
	return true
}
