package client

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Version is mcpscope's version, sent as clientInfo.version by default.
const Version = "0.1.0"

// Era is the generation of MCP a session speaks.
type Era int

// Eras of MCP.
const (
	// EraUnknown is the era before Connect has negotiated one.
	EraUnknown Era = iota
	// EraLegacy opens with the initialize handshake (2024-11-05 … 2025-11-25).
	EraLegacy
	// EraModern is stateless 2026-07-28: server/discover, per-request _meta, MRTR.
	EraModern
)

// String names the era.
func (e Era) String() string {
	switch e {
	case EraLegacy:
		return "legacy"
	case EraModern:
		return "modern"
	}
	return "unknown"
}

// Handshake names what a session at version opened with, as mcpscope
// shows it: "2025-11-25 · initialize handshake", "2026-07-28 ·
// server/discover", or "no handshake" when none negotiated a version
// (tools-http, tools-ws).
func Handshake(e Era, version string) string {
	switch {
	case version == "":
		return "no handshake"
	case e == EraModern:
		return version + " · server/discover"
	}
	return version + " · initialize handshake"
}

// Defaults of Options.
const (
	DefaultMaxInFlight = 128
	// DefaultMaxListens bounds the subscriptions/listen streams open at
	// once (2026-07-28: one per subscribed resource).
	DefaultMaxListens  = 128
	DefaultTimeout     = 60 * time.Second
	DefaultHardTimeout = 10 * time.Minute
	// MaxInputRounds caps the input_required retries of one logical call.
	MaxInputRounds = 16
	// discoverTimeoutCap caps the wait for an answer to the server/discover
	// probe, which waits no longer than Options.Timeout either: a legacy
	// server may silently drop requests it gets before initialize, and the
	// fallback to initialize waits again.
	discoverTimeoutCap = 10 * time.Second
	// cancelSendTimeout bounds the send of a notifications/cancelled (and
	// Options.Timeout and HardTimeout bound it further).
	cancelSendTimeout = 5 * time.Second
)

// Options configure a Session. The zero value is usable.
type Options struct {
	// ClientInfo names the client; default {Name:"mcpscope", Version:Version}.
	ClientInfo mcp.Implementation
	// ProtocolVersion picks the handshake: "" probes server/discover and
	// falls back to initialize; a legacy version forces initialize offering
	// it; "2026-07-28" forces the modern era. Any other value is offered in
	// initialize as is (to test how a server answers an unknown version).
	ProtocolVersion string
	// MaxInFlight bounds the requests awaiting an answer; Call blocks while
	// the tracker is full, up to the request's idle limit. Default 128.
	// subscriptions/listen streams do not count: MaxListens bounds them.
	MaxInFlight int
	// MaxListens bounds the subscriptions/listen streams open at once; a
	// Listen past it fails at once with ErrTooManyListens. Default 128.
	MaxListens int
	// Timeout is the idle limit of one request, restarted by each progress
	// notification for it; it bounds the request's send too, and every
	// other send. Default 60s.
	Timeout time.Duration
	// HardTimeout is the max time of one request, send included, which
	// progress does not extend. Default 10m.
	HardTimeout time.Duration
	// Handler answers server→client requests (elicitation, sampling, roots)
	// and MRTR input requests. With nil, elicitation and sampling are not
	// declared and such requests are answered -32601.
	Handler ServerRequestHandler
	// Roots, when non-nil, declares the roots capability (listChanged) and
	// answers roots/list unless Handler does.
	Roots []mcp.Root
	// Capabilities, when non-nil, is declared as is instead of the
	// capabilities derived from Handler and Roots.
	Capabilities *mcp.ClientCapabilities
	// OnNotification, when set, sees every notification from the server.
	OnNotification func(*jsonrpc.Message)
	// OnStrayAnswer, when set, is told of each answer no request in flight
	// was waiting for: a duplicate, or one to an id never sent. It runs on
	// the transport's read goroutine and must not block.
	OnStrayAnswer func(StrayAnswer)
}

// ServerRequestHandler answers requests the server sends to the client.
type ServerRequestHandler interface {
	// HandleServerRequest answers elicitation/create, sampling/createMessage,
	// roots/list (and in the modern era the same requests when they arrive as
	// MRTR inputRequests). Return a *jsonrpc.Error as error to send that
	// JSON-RPC error; another error → -32603 with its text.
	HandleServerRequest(ctx context.Context, method string, params json.RawMessage) (any, error)
}

// Session is one MCP client session over one Transport. It is safe for
// concurrent use.
type Session struct {
	t      Transport
	traits Traits // what t declares of itself, read once
	tools  annotations
	opts   Options

	nextID  atomic.Int64
	slots   chan struct{} // one token per request in flight
	listens chan struct{} // one token per subscriptions/listen stream open

	mu         sync.Mutex
	started    bool
	closed     bool
	failure    error // set once: *ConnectionError or ErrClosed
	dead       chan struct{}
	pending    map[string]*waiter
	progress   map[string]*waiter // progress token key → waiter
	serverReqs map[string]context.CancelFunc
	roots      []mcp.Root
	subs       map[int]func(*jsonrpc.Message)
	nextSub    int
	listeners  map[string]*listener             // subscription id key → its Listen (listen.go)
	resSubs    map[string]*ResourceSubscription // resource URI → its live subscription (resource_subs.go)
	logLevel   string                           // sent in each request's _meta in 2026-07-28 (log_level.go)

	// Negotiated at Connect; guarded by mu.
	era          Era
	version      string
	serverInfo   mcp.Implementation
	serverCaps   json.RawMessage
	instructions string
	clientCaps   mcp.ClientCapabilities

	inter interactionRegistry // interactive sessions (interaction_route.go); guarded by mu

	// Starting a new session after the server forgot one
	// (session_restart.go); guarded by mu.
	initParams json.RawMessage // the params of the initialize sent last
	reinit     *reinitCall     // a re-initialization in flight
	reinits    int             // sessions started again, for the initialize ids

	notes    *notificationQueue
	handlers chan struct{} // bounds concurrent server-request goroutines
	answers  *answerQueue  // answers sent without a handler goroutine (answer_queue.go)
	refused  atomic.Uint64 // requests answered with a busy error (server_refusals.go)
	dropped  atomic.Uint64
	answered answeredIDs // the last requests answered, to tell a duplicate answer (stray.go)
	called   calledTools // the tools a tools/call was answered for (called_tools.go)
}

// New returns a session over t; nothing is sent until Connect.
func New(t Transport, opts Options) *Session {
	if opts.ClientInfo.Name == "" {
		opts.ClientInfo = mcp.Implementation{Name: "mcpscope", Version: Version}
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	if opts.MaxListens <= 0 {
		opts.MaxListens = DefaultMaxListens
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.HardTimeout <= 0 {
		opts.HardTimeout = DefaultHardTimeout
	}
	s := &Session{
		t:          t,
		traits:     TraitsOf(t),
		opts:       opts,
		slots:      make(chan struct{}, opts.MaxInFlight),
		listens:    make(chan struct{}, opts.MaxListens),
		dead:       make(chan struct{}),
		pending:    make(map[string]*waiter),
		progress:   make(map[string]*waiter),
		serverReqs: make(map[string]context.CancelFunc),
		roots:      opts.Roots,
		subs:       make(map[int]func(*jsonrpc.Message)),
		handlers:   make(chan struct{}, MaxServerRequests),
	}
	if restarts := s.traits.Restarts; restarts != nil {
		restarts(s.restartSession)
	}
	s.answers = &answerQueue{send: s.sendAnswer, stuck: s.answersStuck, timeout: opts.Timeout}
	s.notes = newNotificationQueue(s.dispatchNotification, &s.dropped)
	return s
}

// Era returns the negotiated era (EraUnknown before Connect).
func (s *Session) Era() Era {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.era
}

// ProtocolVersion returns the negotiated protocol version.
func (s *Session) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// ServerInfo returns the implementation the server named.
func (s *Session) ServerInfo() mcp.Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.serverInfo
}

// ServerCapabilities returns the server's capabilities exactly as sent.
func (s *Session) ServerCapabilities() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.serverCaps
}

// Instructions returns the server's instructions, if any.
func (s *Session) Instructions() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.instructions
}

// InFlight returns the number of requests awaiting an answer.
func (s *Session) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending)
}

// MaxTime returns the max time of one request (Options.HardTimeout), which
// also bounds a task the UI follows (client/tasks).
func (s *Session) MaxTime() time.Duration { return s.opts.HardTimeout }

// DroppedNotifications returns how many notifications were dropped because
// the client fell too far behind a flooding server.
func (s *Session) DroppedNotifications() uint64 { return s.dropped.Load() }

// Subscribe registers fn for every notification from the server, called in
// arrival order from one goroutine. It returns the function that removes it.
func (s *Session) Subscribe(fn func(*jsonrpc.Message)) (unsubscribe func()) {
	s.mu.Lock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

// Close fails every pending request with ErrClosed and closes the
// transport. It is safe to call more than once.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.failLocked(ErrClosed)
	for _, cancel := range s.serverReqs {
		cancel()
	}
	s.mu.Unlock()
	s.notes.stop()
	return s.t.Close()
}

// Done is closed when the session ends: after Close, or when its
// connection is lost. A caller that loads the session stops on it.
func (s *Session) Done() <-chan struct{} { return s.dead }

// failLocked records the session's end and fails every pending request
// with err. The first failure wins. s.mu must be held.
func (s *Session) failLocked(err error) {
	if s.failure != nil {
		return
	}
	s.failure = err
	close(s.dead)
	s.endInteractionsLocked(err)
	for key, w := range s.pending {
		delete(s.pending, key)
		s.forgetProgressLocked(w)
		w.done <- outcome{err: err}
	}
}

// watchTransport fails the session when the transport goes away.
func (s *Session) watchTransport() {
	<-s.t.Done()
	err := s.t.Err()
	if err == nil {
		err = errServerClosed
	}
	s.mu.Lock()
	s.failLocked(&ConnectionError{Err: err})
	for _, cancel := range s.serverReqs {
		cancel()
	}
	s.mu.Unlock()
}
