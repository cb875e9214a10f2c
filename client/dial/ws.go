package dial

import (
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// NewWS builds the WebSocket transport for a ws:// or wss://
// target: an MCP session with the subprotocol "mcp" (--transport ws, the
// default) or seed 004's tool frames (--transport tools-ws).
func NewWS(t Endpoint, o Options) (client.Transport, error) {
	if t.URL == nil || (t.URL.Scheme != "ws" && t.URL.Scheme != "wss") {
		return nil, optionErrorf("the %s transport needs a ws:// or wss:// URL", t.Transport)
	}
	if t.Transport == "gateway" {
		o.StreamOut = "" // the gateway's streams save there (gatewaystream), not the transport
	}
	r, err := RemoteOf(o, t.Transport)
	if err != nil {
		return nil, err
	}
	cfg := ws.Config{
		URL:    t.URL.String(),
		Client: r.HTTPClient(o),
		Sink:   o.Sink,
		Conn:   o.Conn,
		Mode:   ws.ModeOf(t.Transport),
	}
	tr, err := ws.New(cfg)
	if err != nil {
		return nil, optionErrorf("%w", err)
	}
	warnInsecure(o)
	return tr, nil
}
