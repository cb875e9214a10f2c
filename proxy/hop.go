package proxy

import (
	"context"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Hop is one message on its way through the proxy.
type Hop struct {
	Dir  capture.Dir // capture.Out: host → server; capture.In: server → host
	Conn string      // the connection, as captured ("" for a single-connection relay)
	// Session is the host's session the message belongs to, within which
	// JSON-RPC ids are unique: a proxy serving several hosts at once
	// gives each its own (the WebSocket or WebTransport connection, the
	// Mcp-Session-Id of an HTTP host), so that an answer is matched with
	// its own host's request. "" when the relay serves one host.
	Session string
	Chan    capture.Channel // where it travelled (a control channel for messages)
	Raw     []byte          // the exact wire bytes, framing included
	Body    []byte          // the message inside Raw (Raw itself when the wire has no framing)
	Enc     proto.Encoding  // the body's encoding (JSON unless the wire says CBOR)
	Fields  []proto.Field   // the framer's annotations of Raw, if any
}

// Carrier is how a relay carries messages of one connection on. Relay
// calls Pass for a message it carries unchanged and Send for one it
// made or changed (an edited message, a fault's error answer, a
// duplicate is a second Pass).
type Carrier interface {
	// Pass writes h.Raw, unchanged, toward h.Dir's receiver: the server
	// for capture.Out, the host for capture.In.
	Pass(ctx context.Context, h Hop) error
	// Send frames body as the wire wants it and writes it toward dir's
	// receiver.
	Send(ctx context.Context, dir capture.Dir, body []byte) error
	// Cut ends the connection on purpose (a fault), saying why.
	Cut(reason string)
}

// Injector sends a request the proxy made itself (a viewer's injected
// request) to the server. Its answer comes back through Relay like any
// other message, which keeps it from the host. A relay registers one with
// Session.SetInjector once it can reach the server; ctx bounds the send.
type Injector func(ctx context.Context, body []byte) error

// decode reads the JSON-RPC message of a hop, or nil when it is not one
// (a batch, garbage, a non-message frame).
func decode(h Hop) *jsonrpc.Message {
	if h.Chan.Kind != capture.Control || len(h.Body) == 0 {
		return nil
	}
	enc := h.Enc
	if enc != proto.EncCBOR {
		enc = proto.EncJSON
	}
	m, err := jsonrpc.Decode(enc, h.Body)
	if err != nil {
		return nil
	}
	return m
}
