package mcphttp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/internal/conn"
)

// Transport is an MCP client transport of the HTTP family. It implements
// client.Transport and declares its traits through Describe.
type Transport struct {
	cfg  Config
	url  *url.URL
	life *conn.Lifecycle
	hc   *http.Client

	ctx    context.Context // every exchange's parent; cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the goroutines reading answers and streams

	dmu     sync.Mutex // one delivery at a time
	deliver func(*jsonrpc.Message)

	seq atomic.Uint64 // numbers the exchanges in connection names

	readerReplies  *replyPlaces // POSTs of answers decided on the reader (replies.go)
	handlerReplies *replyPlaces // POSTs of handlers' answers
	posts          postFailures // failed POSTs of notifications, and unsent answers

	// sleep waits before the standalone GET stream is opened again: d, or
	// until ctx ends; it reports whether d passed (sleepCtx; tests count).
	sleep func(ctx context.Context, d time.Duration) bool

	mu        sync.Mutex
	keyLog    *os.File
	session   string                    // Mcp-Session-Id, once the server gave one
	version   string                    // the protocol version initialize settled
	initSent  bool                      // an initialize request went out: a 404 in its session expires it
	getStop   context.CancelFunc        // ends the standalone GET stream of the session; nil before it was asked for
	probed    bool                      // the first POST was answered: no fallback any more
	legacy    *legacyLink               // the HTTP+SSE link, once in that mode
	fallback  *fallbackTry              // the move to the legacy transport, once tried
	startTime *client.StartTimeoutError // the limit Start was given (client.StartBound), for the fallback
	exchanges map[jsonrpc.ID]*exchange  // open answer streams, by request id (7 and "7" apart)
	posting   map[*exchange]bool        // POSTs of notifications and responses not over yet
	// restart has the engine start a new session after the server forgot
	// one (client.Traits.Restarts); nil without an engine.
	restart func(ctx context.Context, expired string) error
}

var _ client.Transport = (*Transport)(nil)

// New returns a transport for cfg. Nothing is sent until Start.
func New(cfg Config) (*Transport, error) {
	cfg = cfg.withDefaults()
	u, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	t := &Transport{
		cfg: cfg, url: u, ctx: ctx, cancel: cancel,
		life:           conn.NewLifecycle("HTTP", "the HTTP transport ended"),
		exchanges:      make(map[jsonrpc.ID]*exchange),
		posting:        make(map[*exchange]bool),
		sleep:          sleepCtx,
		readerReplies:  newReplyPlaces(),
		handlerReplies: newReplyPlaces(),
	}
	return t, nil
}

// Start prepares the HTTP client. Streamable HTTP sends nothing until the
// first message; the legacy transport opens its SSE stream and waits, at
// most until ctx ends, for the endpoint event.
func (t *Transport) Start(ctx context.Context, deliver func(*jsonrpc.Message)) error {
	if deliver == nil {
		deliver = func(*jsonrpc.Message) {}
	}
	err := t.life.Start(func() error {
		keyLog, err := tlsconf.OpenKeyLog(t.cfg.KeyLogFile)
		if err != nil {
			return err
		}
		var secrets io.Writer // never a nil *os.File in an interface: TLS would write to it
		if keyLog != nil {
			secrets = keyLog
		}
		hc, err := t.newClient(secrets)
		if err != nil {
			if keyLog != nil {
				_ = keyLog.Close()
			}
			return err
		}
		t.mu.Lock()
		t.keyLog, t.hc, t.deliver = keyLog, hc, deliver
		t.mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.startTime = client.StartBound(ctx)
	t.mu.Unlock()
	if t.cfg.Mode == ModeLegacySSE {
		if err := t.openLegacy(ctx); err != nil {
			t.end(err)
			return err
		}
	}
	return nil
}

// deliverMsg hands m to the engine, one message at a time.
func (t *Transport) deliverMsg(m *jsonrpc.Message) {
	t.dmu.Lock()
	defer t.dmu.Unlock()
	t.deliver(m)
}

// Close lets the POSTs of notifications and responses under way be
// answered, so that a notifications/cancelled sent just before reaches the
// server, ends the session (DELETE when the server gave a session id),
// stops every stream and waits for their readers. CloseTimeout bounds the
// wait for the POSTs and the DELETE together.
func (t *Transport) Close() error {
	if !t.life.Close() {
		t.end(nil)
		return nil
	}
	deadline := time.Now().Add(t.cfg.CloseTimeout)
	t.awaitPosts(deadline)
	t.deleteSession(deadline)
	t.end(nil)
	t.warnHiddenPosts()
	return nil
}

// end stops every exchange, waits for the readers and records why the
// transport ended.
func (t *Transport) end(cause error) {
	t.mu.Lock()
	t.cancel() // under mu, so that spawn never adds to wg after this
	t.mu.Unlock()
	t.life.End(cause, func(error) {
		t.wg.Wait()
		t.mu.Lock()
		keyLog := t.keyLog
		t.keyLog = nil
		hc := t.hc
		t.mu.Unlock()
		if keyLog != nil {
			_ = keyLog.Close()
		}
		if c, ok := t.cfg.Auth.(io.Closer); ok {
			_ = c.Close() // the OAuth flow's redirect listener
		}
		if hc != nil {
			hc.CloseIdleConnections()
		}
	})
}

// Done is closed when the transport has ended: after Close, or when the
// legacy SSE stream is lost for good.
func (t *Transport) Done() <-chan struct{} { return t.life.Done() }

// Err says why the transport ended: nil while it runs and after Close.
func (t *Transport) Err() error { return t.life.Err() }

// LinkState says which transport of the family is in use (and the Unix
// socket it runs on, if any) and the session id the server gave: the
// Mcp-Session-Id of Streamable HTTP, or the session the legacy endpoint
// names (legacySession).
func (t *Transport) LinkState() client.LinkState {
	t.mu.Lock()
	defer t.mu.Unlock()
	kind, session := "Streamable HTTP", t.session
	switch {
	case t.cfg.Mode == ModeTools:
		kind = "tools-http"
	case t.legacy != nil || t.cfg.Mode == ModeLegacySSE:
		kind = "HTTP+SSE"
	}
	if t.legacy != nil {
		session = t.legacy.session
	}
	if t.cfg.Socket != "" {
		kind += " on unix:" + t.cfg.Socket // the socket, where the URL says only localhost
	}
	return client.LinkState{Dialect: mcp.DialectMCP, Encoding: "json", Transport: kind, SessionID: session}
}

// warnf tells the user something worth knowing that is not an error.
func (t *Transport) warnf(format string, a ...any) {
	t.cfg.Warn("warning: " + fmt.Sprintf(format, a...))
}

// connName names an exchange's connection in frames: "http POST 3".
func (t *Transport) connName(method string) string {
	var buf [64]byte
	b := append(append(append(append(buf[:0], t.cfg.Conn...), ' '), method...), ' ')
	return string(strconv.AppendUint(b, t.seq.Add(1), 10))
}

// spawn runs fn on a goroutine the transport waits for at its end; it
// reports false, running nothing, once the transport is ending.
func (t *Transport) spawn(fn func()) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ctx.Err() != nil {
		return false
	}
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		fn()
	}()
	return true
}
