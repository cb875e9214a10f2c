package client

import (
	"context"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Transport moves JSON-RPC messages over one connection. It frames and
// encodes, reports every unit it moves as a capture.Frame, and never
// interprets MCP. The session engine drives it.
type Transport interface {
	// Start connects and begins reading. Every incoming message is passed to
	// deliver, in arrival order, from a single goroutine. deliver never
	// waits on a write: answers decided on the spot are queued (bounded)
	// and sent from another goroutine.
	Start(ctx context.Context, deliver func(*jsonrpc.Message)) error
	// Send encodes and writes one message. Concurrent calls never interleave.
	Send(ctx context.Context, m *jsonrpc.Message) error
	// Close shuts the connection down gracefully and waits for it to end.
	Close() error
	// Done is closed when the connection has gone, for whatever reason.
	Done() <-chan struct{}
	// Err says why the connection went: nil after a clean Close, otherwise an
	// error that names the cause (for stdio: exit status and stderr tail).
	Err() error
	// Describe declares what the transport does differently from standard
	// MCP: the engine and the UI read it instead of asking the concrete
	// type. It is called once per session and its answer kept.
	Describe() Traits
}
