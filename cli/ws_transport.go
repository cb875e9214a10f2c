package cli

import (
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// newWSTransport builds the WebSocket transport for a ws:// or wss://
// target: an MCP session with the subprotocol "mcp" (--transport ws, the
// default) or seed 004's tool frames (--transport tools-ws).
func newWSTransport(t Target, o TransportOptions) (client.Transport, error) {
	if t.URL == nil || (t.URL.Scheme != "ws" && t.URL.Scheme != "wss") {
		return nil, usagef("the %s transport needs a ws:// or wss:// URL", t.Transport)
	}
	if t.Transport == "gateway" {
		o.StreamOut = "" // the gateway's streams save there (stream_download.go), not the transport
	}
	r, err := remoteOf(o, t.Transport)
	if err != nil {
		return nil, err
	}
	cfg := ws.Config{
		URL:    t.URL.String(),
		Client: r.httpClient(o),
		Sink:   o.Sink,
		Conn:   o.Conn,
		Mode:   ws.ModeOf(t.Transport),
	}
	tr, err := ws.New(cfg)
	if err != nil {
		return nil, usagef("%w", err)
	}
	warnInsecure(o)
	return tr, nil
}
