package demohttp

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/internal/origin"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Handler serves the demo core over HTTP: Streamable HTTP at PathMCP,
// legacy HTTP+SSE at PathSSE (and PathSSEAbsolute) with PathMessage, and
// seed 004's tools-http at PathTools. It is safe for concurrent use.
type Handler struct {
	core     *demo.Server
	opts     Options
	log      *slog.Logger
	mux      *http.ServeMux
	sessions *registry
	tasks    taskStore // the Tasks extension's tasks (stateless 2026-07-28)
	listens  listens   // the open subscriptions/listen streams (stateless 2026-07-28)

	// newTicker paces heartbeats; tests replace it to tick by hand.
	newTicker func(time.Duration) (<-chan time.Time, func())
}

// New returns a Handler serving core; Close ends its sessions.
func New(core *demo.Server, opts Options) *Handler {
	opts = opts.withDefaults()
	h := &Handler{core: core, opts: opts, log: opts.Logger, mux: http.NewServeMux(),
		sessions: newRegistry(opts.MaxSessions), newTicker: realTicker}
	h.mux.HandleFunc(PathMCP, h.serveMCP)
	h.mux.HandleFunc(PathSSE, h.serveLegacyStream)
	h.mux.HandleFunc(PathSSEAbsolute, h.serveLegacyStream)
	h.mux.HandleFunc(PathMessage, h.serveLegacyMessage)
	h.mux.HandleFunc(PathTools, h.serveTools)
	return h
}

// realTicker is a time.Ticker.
func realTicker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// ServeHTTP refuses an Origin not on the list with 403 (a JSON-RPC error
// without id in the body), then serves the path.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !origin.Allowed(h.opts.Origins, r.Header.Get("Origin")) {
		h.log.Warn("origin refused", "origin", r.Header.Get("Origin"))
		writeError(w, http.StatusForbidden, nil, mcp.CodeInvalidRequest, "origin not allowed: "+r.Header.Get("Origin"))
		return
	}
	h.mux.ServeHTTP(w, r)
}

// Close ends every session: their streams end and their running calls
// are cancelled, and so are the running tasks; the subscriptions/listen streams end. Later requests that need a session get 404.
func (h *Handler) Close() {
	h.sessions.closeAll()
	h.tasks.closeAll()
	h.listens.close()
}

// Sessions returns how many sessions (Streamable HTTP and legacy) are open.
func (h *Handler) Sessions() int { return h.sessions.count() }
