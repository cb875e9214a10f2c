package demohttp

import (
	"log/slog"
	"time"
)

// URL paths the Handler serves.
const (
	// PathMCP is the Streamable HTTP endpoint (POST, GET, DELETE).
	PathMCP = "/mcp"
	// PathSSE is the legacy HTTP+SSE stream (GET); its endpoint event is
	// relative: /message?sessionId=ID.
	PathSSE = "/sse"
	// PathSSEAbsolute is PathSSE with an absolute endpoint URL.
	PathSSEAbsolute = "/sse-abs"
	// PathMessage is where a legacy client POSTs (?sessionId=ID).
	PathMessage = "/message"
	// PathTools is seed 004's tools-http endpoint (POST tools/call).
	PathTools = "/tools"
)

// Eras says which Streamable HTTP flavours /mcp serves.
type Eras int

const (
	// BothEras decides per request: a request whose MCP-Protocol-Version
	// is 2026-07-28, or one without Mcp-Session-Id that names 2026-07-28 in
	// _meta or is server/discover, is served stateless; initialize and the
	// rest are served in a session (2025-03-26 … 2025-11-25).
	BothEras Eras = iota
	// LegacyOnly serves sessions only: a request without Mcp-Session-Id
	// other than initialize is 400 with no modern error, so a client
	// probing server/discover falls back to initialize.
	LegacyOnly
	// ModernOnly serves 2026-07-28 only: initialize is 400 with -32022
	// (unsupported protocol version), GET and DELETE are 405, and
	// Mcp-Session-Id and Last-Event-ID are ignored.
	ModernOnly
)

// Defaults of Options.
const (
	DefaultMaxBody      = 4 << 20
	DefaultReplayEvents = 512
	DefaultReplayBytes  = 4 << 20
	DefaultBacklog      = 1 << 20
	DefaultMaxSessions  = 256
	DefaultMaxStreams   = 64
	DefaultSessionIdle  = 30 * time.Minute
	DefaultRetry        = time.Second
	DefaultHeartbeat    = 15 * time.Second
	DefaultWriteTimeout = 30 * time.Second
)

// Options configure a Handler. The zero value is usable.
type Options struct {
	// Origins lists the Origin header values accepted; a request without
	// Origin is always accepted, "*" accepts any, the rest get 403.
	Origins []string
	// Eras picks the Streamable HTTP flavours of /mcp (default BothEras).
	Eras Eras
	// JSONResponse answers every request on /mcp with one application/json
	// body instead of an SSE stream; a call's notifications and requests
	// then go on the session's GET stream (dropped when stateless).
	JSONResponse bool
	// MaxBody bounds a request body in bytes; over it: 413 (default DefaultMaxBody).
	MaxBody int64
	// ReplayEvents and ReplayBytes bound what a stream keeps of the events it
	// wrote, for Last-Event-ID (defaults DefaultReplayEvents, DefaultReplayBytes).
	ReplayEvents int
	ReplayBytes  int64
	// Backlog bounds the bytes a stream holds that no connection has
	// written yet; past it a sender waits (default DefaultBacklog).
	Backlog int64
	// MaxSessions bounds the sessions open at once (Streamable HTTP and
	// legacy alike); past it initialize gets 503 (default DefaultMaxSessions).
	MaxSessions int
	// MaxStreams bounds the unfinished streams of one session; past it a
	// request gets 429 (default DefaultMaxStreams).
	MaxStreams int
	// SessionIdle ends a session nobody used for that long (default DefaultSessionIdle).
	SessionIdle time.Duration
	// Retry is the retry field of the priming event and of a cut stream
	// (default DefaultRetry).
	Retry time.Duration
	// Heartbeat is the pace of the ": heartbeat" comments of seed 004's
	// streams and of misbehave heartbeats_only (default DefaultHeartbeat).
	Heartbeat time.Duration
	// WriteTimeout bounds one write to a client that does not read
	// (default DefaultWriteTimeout).
	WriteTimeout time.Duration
	// Logger receives diagnostics (nil: discarded).
	Logger *slog.Logger
}

// withDefaults fills the zero fields of o.
func (o Options) withDefaults() Options {
	orDefault(&o.MaxBody, DefaultMaxBody)
	orDefault(&o.ReplayBytes, DefaultReplayBytes)
	orDefault(&o.Backlog, DefaultBacklog)
	orDefault(&o.ReplayEvents, DefaultReplayEvents)
	orDefault(&o.MaxSessions, DefaultMaxSessions)
	orDefault(&o.MaxStreams, DefaultMaxStreams)
	orDefault(&o.SessionIdle, DefaultSessionIdle)
	orDefault(&o.Retry, DefaultRetry)
	orDefault(&o.Heartbeat, DefaultHeartbeat)
	orDefault(&o.WriteTimeout, DefaultWriteTimeout)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// orDefault sets *v to d unless it is positive.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}
