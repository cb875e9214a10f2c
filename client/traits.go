package client

import (
	"context"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Traits is what a transport declares of itself, through
// Transport.Describe: how the engine drives it and what it tells of its
// link. Each field left zero means the standard MCP behaviour, so the zero
// Traits describes a transport that opens with the server/discover probe
// or initialize, cancels with notifications/cancelled, holds nothing open
// for a request, speaks MCP in JSON, negotiates no encoding and counts
// nothing.
type Traits struct {
	// InitializeOnly says the first message must be the initialize request
	// (MCP-Flow: the control stream opens with it). Connect then never
	// probes server/discover: it runs the initialize handshake, offering
	// Options.ProtocolVersion or, when that is empty, the newest legacy
	// version.
	InitializeOnly bool
	// HandshakeFree says the dialect has no handshake (seed 004's
	// tools-http and tools-ws: each tools/call stands alone). Connect then
	// only starts the transport; requests go out in the legacy era's
	// shape, with no protocol version negotiated and nothing known of the
	// server.
	HandshakeFree bool
	// Cancel, when set, is the binding's own message telling the server the
	// client no longer waits for the request with id, giving reason
	// (MCP-Flow: $/cancel). The engine calls it instead of anything else
	// when it gives up on a request (timeout, context, Session.Cancel); ctx
	// bounds the send.
	Cancel func(ctx context.Context, id jsonrpc.ID, reason string) error
	// Abort, when set, closes what carries the answer of the request with
	// id (HTTP: its POST and answer stream), saying so in the capture with
	// reason; it reports false when nothing of the request is open. The
	// engine calls it to cancel where the protocol cancels by closing the
	// stream (2026-07-28, seed 004's dialect).
	Abort func(id jsonrpc.ID, reason string) bool
	// Cancelled, when set, tells the transport the engine gave up on the
	// request with id and is about to send notifications/cancelled: the
	// transport delivers no answer to it any more, and may go on reading
	// what follows for a while, so that the capture shows it.
	Cancelled func(id jsonrpc.ID)
	// Forget, when set, lets go of what the transport holds open for the
	// request with id until its answer (HTTP: the POST and its answer
	// stream), telling the server nothing. The engine calls it when it
	// stops waiting for a request it does not cancel (the server/discover
	// probe left unanswered after the fallback to initialize).
	Forget func(id jsonrpc.ID)
	// Link, when set, says what the transport tells of its link: dialect,
	// state, encoding, transport name and session id. Without it the link
	// is MCP in JSON.
	Link func() LinkState
	// MirrorsParams says the transport sends the ParamHeaders the engine
	// hands a 2026-07-28 tools/call in its Send context (ParamHeadersOf)
	// as Mcp-Param headers (Streamable HTTP). The engine then learns the
	// tools' x-mcp-header annotations from their tools/list answers, lists
	// them on its own when a call needs them, and refuses a tool whose
	// annotations are invalid unless the user insists.
	MirrorsParams bool
	// Restarts, when set, says the transport can tell that the server
	// forgot the session a message was sent in (Streamable HTTP: a 404 to
	// a POST carrying Mcp-Session-Id). The engine hands it restart at New:
	// the transport calls it with the forgotten session's id when a
	// message meets it, the engine starts a new session (initialize and
	// notifications/initialized again, once for every message that met the
	// same one, marked InRestartedSession) and returns nil once it is
	// ready, or why it could not; the transport then sends the message
	// again, unless it is a request the engine gave up on meanwhile
	// (Abort, Cancelled, Forget), or fails it. ctx bounds the wait.
	Restarts func(restart func(ctx context.Context, expired string) error)
	// Tally, when set, counts what the transport could not carry or chose
	// to ignore so far.
	Tally func() Tally
	// Encodings, when set, are the body encodings the binding can switch
	// to after the handshake, in the order it prefers them (MCP-Flow: cbor,
	// json). The engine offers them in the initialize request
	// (params.transport, MCP-Flow's offer), reads the server's choice from
	// the result's transport member and hands it to Negotiated. A choice it
	// did not offer, or a transport member it cannot read, ends the session
	// with a *ProtocolError (see Fail).
	Encodings []string
	// Negotiated, when set, is told what the initialize result settled
	// (MCP-Flow: the encoding the server chose and its limits). The engine
	// calls it from within deliver, on the result's way to its caller, so
	// the binding switches encoding before it decodes another message.
	Negotiated func(n flow.Negotiation)
	// Fail, when set, ends the connection at once because of err, a
	// violation the engine found that leaves the link unusable (MCP-Flow:
	// an encoding the client did not offer), the way the binding ends it on
	// a violation of its own: Err then says err. The engine calls it from
	// within deliver. Without it the transport is closed when Connect gives
	// up.
	Fail func(err error)
}

// Tally counts what a transport could not carry or ignored, for the
// warnings and the status bar; nothing else tells of it.
type Tally struct {
	// UnsentAnswers are the answers to the server's requests the transport
	// could not send (HTTP: the POSTs of answers the server refused).
	UnsentAnswers uint64
	// IgnoredStreamErrors are the MCP-Flow $/streamError the transport
	// ignored (naming no stream it was reading or waiting for, or
	// repeated).
	IgnoredStreamErrors uint64
	// IgnoredShutdowns are the MCP-Flow $/shutdown after the first.
	IgnoredShutdowns uint64
}

// TraitsOf returns what t declares of itself; a nil t declares nothing.
func TraitsOf(t Transport) Traits {
	if t == nil {
		return Traits{}
	}
	return t.Describe()
}

// TallyOf returns what t counted so far, zero when it counts nothing.
func TallyOf(t Transport) Tally { return TraitsOf(t).tally() }

// Tally returns what the session's transport counted so far, zero when it
// counts nothing, through the traits the transport declared at New: it
// asks the transport nothing more than its count.
func (s *Session) Tally() Tally { return s.traits.tally() }

// tally returns what the transport that declared tr counted so far.
func (tr Traits) tally() Tally {
	if tr.Tally != nil {
		return tr.Tally()
	}
	return Tally{}
}

// HandshakeFree reports whether the session's dialect has no handshake
// (seed 004's tools-http and tools-ws): Connect only started the
// transport, and the dialect carries tools/call alone.
func (s *Session) HandshakeFree() bool { return s.traits.HandshakeFree }
