package demows

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/internal/origin"
	"github.com/mcpscope/mcpscope/internal/app/listen"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/gateway"
)

// URL paths the Handler serves, one per dialect.
const (
	// PathMCP is the MCP session over WebSocket (--transport ws).
	PathMCP = "/mcp"
	// PathTools is seed 004's tool frames (--transport tools-ws).
	PathTools = "/tools"
	// PathGateway is seed 003's gateway: JSON-RPC and StreamMessage streams.
	PathGateway = "/gateway"
)

// Subprotocol is the WebSocket subprotocol of an MCP session, chosen when
// the client offers it.
const Subprotocol = "mcp"

// Defaults of Options.
const (
	DefaultMaxMessage   = flow.DefaultMaxControlFrame + gateway.GatewayChunkHeaderLen
	DefaultPingInterval = 10 * time.Second
	DefaultStreamIdle   = 30 * time.Second // seed 003 §7
	DefaultMaxStreams   = 16
	DefaultChunkSize    = 64 << 10
	DefaultWriteTimeout = 30 * time.Second
)

// Options configure a Handler. The zero value is usable.
type Options struct {
	// Origins are the Origin values an upgrade may carry (`serve --origin`;
	// "*" accepts any); one without Origin is always accepted, another gets
	// 403, as on HTTP.
	Origins []string
	// MaxMessage bounds one message from the client; a larger one closes
	// the connection with 1009 (default DefaultMaxMessage).
	MaxMessage int64
	// PingInterval is how often seed 004's dialect gets an unsolicited
	// {"type":"ping"} frame besides the one at its start (default
	// DefaultPingInterval).
	PingInterval time.Duration
	// StreamIdle ends a gateway stream that the client leaves without a
	// frame this long, with an error message (default DefaultStreamIdle).
	StreamIdle time.Duration
	// MaxStreams bounds the gateway streams open at once on one connection
	// (default DefaultMaxStreams).
	MaxStreams int
	// ChunkSize is the payload of the binary chunks the server streams
	// (default DefaultChunkSize).
	ChunkSize int
	// MaxStreamOut bounds the meta.totalSize system_binary_streams_out
	// accepts (default MaxStreamOut).
	MaxStreamOut int64
	// WriteTimeout bounds one write to a client that stopped reading; the
	// connection closes then (default DefaultWriteTimeout).
	WriteTimeout time.Duration
	// Logger receives diagnostics (nil: discarded).
	Logger *slog.Logger
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.MaxMessage <= 0 {
		o.MaxMessage = DefaultMaxMessage
	}
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.StreamIdle <= 0 {
		o.StreamIdle = DefaultStreamIdle
	}
	if o.MaxStreams <= 0 {
		o.MaxStreams = DefaultMaxStreams
	}
	if o.ChunkSize <= 0 {
		o.ChunkSize = DefaultChunkSize
	}
	if o.MaxStreamOut <= 0 {
		o.MaxStreamOut = MaxStreamOut
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// dialect is what a path speaks.
type dialect uint8

const (
	dialectMCP dialect = iota
	dialectTools
	dialectGateway
)

// dialects maps the paths to their dialect.
var dialects = map[string]dialect{PathMCP: dialectMCP, PathTools: dialectTools, PathGateway: dialectGateway}

// Handler upgrades requests on its paths to WebSocket and serves the demo
// core in the path's dialect. Close ends every connection.
type Handler struct {
	core *demo.Server
	opts Options

	mu     sync.Mutex
	closed bool
	conns  map[*websocket.Conn]struct{}
	wg     sync.WaitGroup
}

// New builds a Handler serving core.
func New(core *demo.Server, opts Options) *Handler {
	return &Handler{core: core, opts: opts.withDefaults(), conns: make(map[*websocket.Conn]struct{})}
}

// ServeHTTP upgrades a request on one of the paths; others get 404, an
// Origin not on Options.Origins 403.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d, ok := dialects[r.URL.Path]
	if !ok {
		http.Error(w, fmt.Sprintf("no WebSocket endpoint at %s: %s (MCP), %s (tool frames), %s (gateway streams)",
			r.URL.Path, PathMCP, PathTools, PathGateway), http.StatusNotFound)
		return
	}
	if !origin.Allowed(h.opts.Origins, r.Header.Get("Origin")) {
		h.opts.Logger.Warn("origin refused", "origin", r.Header.Get("Origin"))
		http.Error(w, "origin not allowed: "+r.Header.Get("Origin"), http.StatusForbidden)
		return
	}
	var protos []string
	if d != dialectTools {
		protos = []string{Subprotocol}
	}
	// The Origin was checked above, against the same list as on HTTP.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: protos, InsecureSkipVerify: true})
	if err != nil {
		h.opts.Logger.Debug("upgrade refused", "path", r.URL.Path, "err", err)
		return
	}
	if !h.track(c) {
		_ = c.Close(websocket.StatusGoingAway, "the demo server is shutting down")
		return
	}
	defer h.untrack(c)
	c.SetReadLimit(h.opts.MaxMessage)
	newSession(h, c, d).run()
}

// track registers a connection for Close; false once Close began.
func (h *Handler) track(c *websocket.Conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.conns[c] = struct{}{}
	h.wg.Add(1)
	return true
}

// untrack forgets a connection that ended.
func (h *Handler) untrack(c *websocket.Conn) {
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	h.wg.Done()
}

// Close ends every connection and waits for their sessions.
func (h *Handler) Close() {
	h.mu.Lock()
	h.closed = true
	for c := range h.conns {
		_ = c.CloseNow()
	}
	h.mu.Unlock()
	h.wg.Wait()
}

// Serve serves the demo core over WebSocket on ln until ctx is done, then
// ends every connection. It closes ln.
func Serve(ctx context.Context, core *demo.Server, ln net.Listener, opts Options) error {
	h := New(core, opts)
	return listen.Serve(ctx, ln, h, nil, h.Close, "WebSocket")
}

// URLs are the endpoints of a Handler served at base (ws://HOST:PORT).
type URLs struct {
	MCP, Tools, Gateway string
}

// EndpointURLs returns the endpoints of a listening address; a wildcard
// host is shown as 127.0.0.1.
func EndpointURLs(addr net.Addr) URLs {
	base := listen.BaseURL("ws", addr)
	return URLs{MCP: base + PathMCP, Tools: base + PathTools, Gateway: base + PathGateway}
}
