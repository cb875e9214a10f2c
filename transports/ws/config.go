package ws

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// Mode is the dialect spoken over the WebSocket.
type Mode uint8

// Modes.
const (
	// ModeJSONRPC: an MCP session, one JSON-RPC message per text frame,
	// the subprotocol "mcp" offered (--transport ws).
	ModeJSONRPC Mode = iota
	// ModeTools: seed 004's tool frames, no handshake (--transport tools-ws).
	ModeTools
	// ModeGateway: an MCP session as ModeJSONRPC (the subprotocol "mcp"
	// offered too: seed 003 names none, and the session's JSON-RPC is
	// MCP's), plus seed 003's StreamMessage streams in text frames and
	// binary chunk frames (--transport gateway).
	ModeGateway
)

// Subprotocol is the WebSocket subprotocol offered for an MCP session
// (ModeJSONRPC and ModeGateway; seed 004's tool frames offer none).
const Subprotocol = "mcp"

// modeNames are the modes' --transport names.
var modeNames = [...]string{ModeJSONRPC: "ws", ModeTools: "tools-ws", ModeGateway: "gateway"}

// String is the mode's --transport name: ws, tools-ws or gateway.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode %d", m)
}

// ModeOf is the mode a --transport name selects: tools-ws and gateway
// their own, any other name (ws, the default for ws:// URLs) ModeJSONRPC.
func ModeOf(transport string) Mode {
	for m, name := range modeNames {
		if name == transport {
			return Mode(m)
		}
	}
	return ModeJSONRPC
}

// Subprotocols are the subprotocols the mode's upgrade offers: "mcp"
// for an MCP session (ws, and the gateway's), none for seed 004's tool
// frames, which name none.
func (m Mode) Subprotocols() []string {
	if m == ModeTools {
		return nil
	}
	return []string{Subprotocol}
}

// DefaultConn names the connection in frames.
const DefaultConn = "ws"

// Config configures a Transport.
type Config struct {
	// URL is the ws:// or wss:// endpoint.
	URL string
	// Mode picks the dialect.
	Mode Mode
	// Client holds what the upgrade carries, trusts and accepts:
	// headers, authorization, Origin, TLS, the largest message,
	// redaction, warnings.
	httpconf.Client
	// Sink receives every frame (nil: capture.Discard).
	Sink capture.Sink
	// Conn names the connection in frames (default "ws").
	Conn string
	// OnStream, in ModeGateway, is told of every message of a gateway
	// stream from the server, in order, on the reading goroutine.
	OnStream func(StreamEvent)
}

// withDefaults fills what the caller left zero and checks the URL.
func (c Config) withDefaults() (Config, *url.URL, error) {
	u, err := url.Parse(c.URL)
	if err != nil {
		return c, nil, fmt.Errorf("the WebSocket URL %q: %w", c.URL, err)
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return c, nil, fmt.Errorf("the WebSocket URL %q must start with ws:// or wss://", c.URL)
	}
	if u.Host == "" {
		return c, nil, errors.New("the WebSocket URL names no host")
	}
	if u.Scheme == "ws" && (len(c.CertHashes) > 0 || c.Insecure || c.RootCAs != nil || c.KeyLogFile != "") {
		return c, nil, errors.New("--cert-hash, --insecure and --keylog apply to wss:// URLs only")
	}
	c.Client = c.Client.WithDefaults()
	if c.Sink == nil {
		c.Sink = capture.Discard
	}
	if c.Conn == "" {
		c.Conn = DefaultConn
	}
	if c.OnStream == nil {
		c.OnStream = func(StreamEvent) {}
	}
	return c, u, nil
}
