package ws

import "github.com/mcpscope/mcpscope/client"

// Describe declares what a WebSocket transport does differently from
// standard MCP: its link (subprotocol and mode) and, for seed 004's tool
// dialect, no handshake.
func (t *Transport) Describe() client.Traits {
	return client.Traits{HandshakeFree: t.HandshakeFree(), Link: t.LinkState}
}
