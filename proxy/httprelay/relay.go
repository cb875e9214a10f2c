package httprelay

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proxy"
)

// Options configure a Relay.
type Options struct {
	// Session is the proxied session every message goes through.
	Session *proxy.Session
	// Upstream is the remote server's URL; each request of the host goes
	// to its origin at the path and query the host asked for.
	Upstream *url.URL
	// Client reaches the server (NewClient).
	Client *http.Client
	// Header holds headers (--header) a request carries when the host did
	// not send them itself.
	Header http.Header
	// NoRedact keeps credentials in the captured heads.
	NoRedact bool
}

// Relay serves the host's requests and relays them to the server. It is
// an http.Handler.
type Relay struct {
	opt  Options
	sess *proxy.Session
	tap  tap
	seq  atomic.Uint64
	ctx  context.Context // ends the injected exchanges at Close
	stop context.CancelFunc

	mu      sync.Mutex
	session string // the last Mcp-Session-Id seen either way
	version string // the host's last MCP-Protocol-Version
	auth    string // the host's last Authorization
	target  string // where the host last posted (path and query)
	// endpoints counts the legacy streams open per endpoint they gave
	// (hostSession).
	endpoints map[string]int
}

// New returns a Relay for opt.
func New(opt Options) (*Relay, error) {
	if opt.Session == nil || opt.Upstream == nil || opt.Client == nil {
		return nil, errors.New("httprelay: a relay needs a session, the server's URL and a client")
	}
	ctx, stop := context.WithCancel(context.Background())
	return &Relay{opt: opt, sess: opt.Session, tap: tap{sess: opt.Session, noRedact: opt.NoRedact}, ctx: ctx, stop: stop}, nil
}

// LocalURL is where a host reaches the server through the relay
// listening on addr: the server's path and query on the relay's origin.
func (r *Relay) LocalURL(addr net.Addr) string {
	u := url.URL{Scheme: "http", Host: addr.String(), Path: r.opt.Upstream.Path, RawPath: r.opt.Upstream.RawPath, RawQuery: r.opt.Upstream.RawQuery}
	return u.String()
}

// Serve serves the host's requests on ln until ctx ends, then stops
// within a bounded time.
func (r *Relay) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: r, ReadHeaderTimeout: 30 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		r.stop()
		return err
	case <-ctx.Done():
	}
	r.stop()
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if srv.Shutdown(shut) != nil {
		_ = srv.Close() // streams still open: end them
	}
	<-done
	return ctx.Err()
}

// ServeHTTP relays one request of the host.
func (r *Relay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	ctx, cancel := context.WithCancel(req.Context())
	defer cancel()
	ex := &exchange{r: r, req: req, w: w, rc: http.NewResponseController(w), cancel: cancel,
		conn: "http " + req.Method + " " + strconv.FormatUint(r.seq.Add(1), 10), session: r.hostSession(req)}
	r.learn(req)
	err := r.serve(ctx, ex)
	if ex.endpoint != "" {
		r.closeEndpoint(ex.endpoint)
	}
	ex.mu.Lock()
	broken := ex.broken.Load() || errors.Is(err, errBroken)
	if !ex.started && !broken {
		ex.startLocked()
	}
	ex.mu.Unlock()
	if broken {
		// The host sees its connection end as the server's did, or as a
		// fault cut it: not as a complete answer.
		panic(http.ErrAbortHandler)
	}
}

// serve relays ex: a POST body goes through the session as a message,
// another request goes to the server as it is.
func (r *Relay) serve(ctx context.Context, ex *exchange) error {
	var body []byte
	long := false
	if ex.req.Body != nil {
		b, l, err := readBody(ex.req.Body)
		if err != nil {
			r.tap.note(capture.Out, ex.conn, "the host's request could not be read: "+err.Error(), err)
			return r.refuse(ex, http.StatusBadRequest, "mcpscope proxy: the request's body could not be read: "+err.Error())
		}
		body, long = b, l
	}
	if ex.req.Method == http.MethodPost {
		r.mu.Lock()
		r.target = ex.req.URL.RequestURI()
		r.mu.Unlock()
		r.sess.SetInjector(r.inject)
	}
	switch {
	case long:
		return r.carryLong(ctx, ex, body)
	case ex.req.Method != http.MethodPost:
		return r.forward(ctx, ex, body)
	}
	// The head goes first in the capture, as on the wire: the request as
	// it goes to the server, its body the message that follows.
	if up, err := r.upstreamRequest(ctx, ex.req, body); err == nil {
		r.tap.request(ex.conn, up)
		ex.headTold = true
	}
	h := proxy.Hop{Dir: capture.Out, Conn: ex.conn, Session: ex.session, Chan: capture.Channel{Kind: capture.Control}, Raw: body, Body: body, Enc: proto.EncJSON,
		Fields: []proto.Field{{Offset: 0, Len: len(body), Name: "body", Kind: proto.FieldBody}}}
	if err := r.sess.Relay(ctx, h, ex); err != nil {
		return err
	}
	ex.mu.Lock()
	answered := ex.answered
	ex.mu.Unlock()
	if !answered {
		// Dropped (a viewer or a fault): the server never saw it; the
		// host's request is accepted and answers nothing.
		ex.mu.Lock()
		ex.status = http.StatusAccepted
		ex.mu.Unlock()
	}
	return nil
}

// refuse answers the host itself, status and text, saying it is the
// proxy's answer.
func (r *Relay) refuse(ex *exchange, status int, text string) error {
	ex.mu.Lock()
	ex.status = status
	ex.header = http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "X-Mcpscope-Proxy": {"error"}}
	ex.mu.Unlock()
	return ex.raw(context.Background(), []byte(text+"\n"))
}

// upstreamRequest is the host's request as it goes to the server: the
// same method, path and query on the server's origin, the host's headers
// (less those of its connection) and body.
func (r *Relay) upstreamRequest(ctx context.Context, req *http.Request, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	return r.upstreamRequestFrom(ctx, req, rd)
}

// upstreamRequestFrom is upstreamRequest with the body read from rd (nil:
// none).
func (r *Relay) upstreamRequestFrom(ctx context.Context, req *http.Request, rd io.Reader) (*http.Request, error) {
	u := *r.opt.Upstream
	u.Path, u.RawPath, u.RawQuery = req.URL.Path, req.URL.RawPath, req.URL.RawQuery
	up, err := http.NewRequestWithContext(ctx, req.Method, u.String(), rd)
	if err != nil {
		return nil, err
	}
	forwardHeader(up.Header, req.Header)
	addDefaults(up.Header, r.opt.Header)
	if rd == nil {
		up.Header.Del("Content-Length")
	}
	return up, nil
}

// forward sends the host's request with body to the server and relays the
// server's answer to the host. A server that cannot be reached gets the
// host a 502 that says why.
func (r *Relay) forward(ctx context.Context, ex *exchange, body []byte) error {
	up, err := r.upstreamRequest(ctx, ex.req, body)
	if err != nil {
		return r.refuse(ex, http.StatusBadGateway, "mcpscope proxy: "+err.Error())
	}
	return r.forwardRequest(ctx, ex, up)
}

// forwardRequest sends up, the host's request as it goes to the server,
// and relays the server's answer to the host.
func (r *Relay) forwardRequest(ctx context.Context, ex *exchange, up *http.Request) error {
	if !ex.headTold {
		r.tap.request(ex.conn, up)
	}
	rsp, err := r.opt.Client.Do(up)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		err = unreachable(r.opt.Upstream, err)
		r.tap.note(capture.In, ex.conn, err.Error(), err)
		return r.refuse(ex, http.StatusBadGateway, "mcpscope proxy: "+err.Error())
	}
	defer rsp.Body.Close()
	r.tap.response(ex.conn, rsp)
	r.learnResponse(rsp)
	header := http.Header{}
	forwardHeader(header, rsp.Header)
	header.Del("Content-Length") // an edited answer has another length
	ex.mu.Lock()
	ex.header, ex.status, ex.stream = header, rsp.StatusCode, isStream(rsp)
	ex.mu.Unlock()
	a := &answer{sess: r.sess, tap: r.tap, conn: ex.conn, session: ex.session, rsp: rsp, host: ex}
	if ex.stream {
		a.endpoint = func(raw []byte, data string) []byte {
			if a.session == "" && ex.endpoint == "" {
				// The stream's messages belong to the session the
				// endpoint names, as do the host's posts to it.
				ex.endpoint = r.openEndpoint(ex.req, data)
				a.session = ex.endpoint
			}
			return r.rewriteEndpoint(ex, raw, data)
		}
		if err := ex.raw(ctx, nil); err != nil { // the head goes at once: the host sees its stream open
			return err
		}
		return r.followStream(ctx, ex, a)
	}
	return a.relay(ctx)
}

// followStream relays an event stream between the notes of its start and
// end.
func (r *Relay) followStream(ctx context.Context, ex *exchange, a *answer) error {
	start := capture.SSEStart{Kind: capture.SSEAnswer}
	switch {
	case ex.req.Method == http.MethodGet && ex.req.Header.Get("Last-Event-ID") != "":
		start = capture.SSEStart{Kind: capture.SSEResume, After: ex.req.Header.Get("Last-Event-ID")}
	case ex.req.Method == http.MethodGet:
		start.Kind = capture.SSEGet
	}
	capture.Note(r.sess.Tap(), capture.SSEOpened{Conn: ex.conn, Start: start})
	err := a.relay(ctx)
	state, why := capture.SSEDone, ""
	switch {
	case ctx.Err() != nil:
		state, why = capture.SSECancelled, "the host closed it"
	case err != nil:
		state, why = capture.SSEBroken, err.Error()
	}
	capture.Note(r.sess.Tap(), capture.SSEEnded{Conn: ex.conn, State: state, Why: why})
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// learn keeps what an injected request needs of the host's request.
func (r *Relay) learn(req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v := req.Header.Get("Mcp-Session-Id"); v != "" {
		r.session = v
	}
	if v := req.Header.Get("Mcp-Protocol-Version"); v != "" {
		r.version = v
	}
	if v := req.Header.Get("Authorization"); v != "" {
		r.auth = v
	}
}

// learnResponse keeps the session id the server gives.
func (r *Relay) learnResponse(rsp *http.Response) {
	if v := rsp.Header.Get("Mcp-Session-Id"); v != "" {
		r.mu.Lock()
		r.session = v
		r.mu.Unlock()
	}
}
