package client

import (
	"context"

	"github.com/mcpscope/mcpscope/proto"
)

// Optional interfaces a Transport may implement to change how the engine
// uses it. The engine checks for them with a type assertion; a transport
// that implements none of them gets the standard MCP behaviour.

// InitializeOnly is implemented by a transport whose first message must be
// the initialize request (MCP-Flow: the control stream opens with it). When
// InitializeOnly reports true, Connect never probes server/discover: it runs
// the initialize handshake, offering Options.ProtocolVersion or, when that
// is empty, the newest legacy version.
type InitializeOnly interface {
	InitializeOnly() bool
}

// RequestCanceller is implemented by a transport with its own way to cancel
// a request (MCP-Flow: the $/cancel notification). When the engine gives up
// on a request (timeout, context, Session.Cancel) it calls CancelRequest
// instead of sending notifications/cancelled.
type RequestCanceller interface {
	// CancelRequest tells the server the client no longer waits for the
	// request with id, giving reason. ctx bounds the send.
	CancelRequest(ctx context.Context, id proto.ID, reason string) error
}

// RequestForgetter is implemented by a transport that holds something of
// its own open for a request until its answer (HTTP: the POST and its
// answer stream). When the engine forgets a request without telling the
// server (the server/discover probe left unanswered after the fallback to
// initialize), it calls ForgetRequest so the transport lets that go.
type RequestForgetter interface {
	// ForgetRequest lets go of what is held open for the request with id,
	// telling the server nothing.
	ForgetRequest(id proto.ID)
}

// HandshakeFree is implemented by a transport whose dialect has no
// handshake (seed 004's tools-http: each tools/call a POST of its own).
// When HandshakeFree reports true, Connect only starts the transport;
// requests then go out in the legacy era's shape, with no protocol version
// negotiated and nothing known of the server.
type HandshakeFree interface {
	HandshakeFree() bool
}

// handshakeFree reports whether t's dialect has no handshake.
func handshakeFree(t Transport) bool {
	hf, ok := t.(HandshakeFree)
	return ok && hf.HandshakeFree()
}

// HandshakeFree reports whether the session's dialect has no handshake
// (seed 004's tools-http and tools-ws): Connect only started the
// transport, and the dialect carries tools/call alone.
func (s *Session) HandshakeFree() bool { return handshakeFree(s.t) }

// initializeOnly reports whether t asks for the initialize handshake only.
func initializeOnly(t Transport) bool {
	io, ok := t.(InitializeOnly)
	return ok && io.InitializeOnly()
}
