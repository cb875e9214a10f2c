package client

import (
	"errors"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// LinkState is what a transport says of its connection for display: the
// dialect it speaks, where its state machine stands and the body encoding
// it settled (Traits.Link). The UI reads it through LinkStateOf or Session.LinkState and
// never needs to know the concrete transport.
type LinkState struct {
	// Dialect is the protocol the transport speaks (mcp.DialectMCP or
	// mcp.DialectMCPFlow); it names error codes and the status bar.
	Dialect mcp.Dialect
	// State is the transport's own state-machine state ("CONNECTED",
	// "CONTROL_STREAM_OPENED"), or "" for a transport that keeps none.
	State string
	// Encoding is the body encoding in use ("json", "cbor"), or "" while
	// it is not settled yet.
	Encoding string
	// Transport names the transport where the dialect alone does not
	// ("Streamable HTTP", "HTTP+SSE"), or "".
	Transport string
	// SessionID is the session id the server gave (Mcp-Session-Id), or "".
	SessionID string
}

// LinkStateOf returns what t says of its link (Traits.Link), or the
// MCP-over-JSON defaults when it says nothing. A nil t reports the
// defaults too.
func LinkStateOf(t Transport) LinkState { return TraitsOf(t).linkState() }

// linkState is what the Link of tr says, or the MCP-over-JSON defaults.
func (tr Traits) linkState() LinkState {
	if tr.Link != nil {
		return tr.Link()
	}
	return LinkState{Dialect: mcp.DialectMCP, Encoding: "json"}
}

// LinkState returns what the session's transport says of its link.
func (s *Session) LinkState() LinkState { return s.traits.linkState() }

// HandshakeExit is implemented by a transport error that reads differently
// when the server went away before it answered the handshake (stdio: the
// server exited before answering initialize).
type HandshakeExit interface {
	error
	// BeforeHandshake returns the error worded for a server that went
	// before the session opened.
	BeforeHandshake() error
}

// BeforeHandshake words err for a connection that failed during the
// handshake: when err holds a HandshakeExit it returns that error's
// handshake wording, otherwise err as it is.
func BeforeHandshake(err error) error {
	var e HandshakeExit
	if errors.As(err, &e) {
		return e.BeforeHandshake()
	}
	return err
}
