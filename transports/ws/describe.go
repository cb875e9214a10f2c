package ws

import "github.com/mcpscope/mcpscope/client"

// Describe declares what a WebSocket transport does differently from
// standard MCP: its link (subprotocol and mode) and, for seed 004's tool
// dialect, no handshake and a call given up by forgetting it.
func (t *Transport) Describe() client.Traits {
	traits := client.Traits{HandshakeFree: t.HandshakeFree(), Link: t.LinkState}
	if t.cfg.Mode == ModeTools {
		traits.Abort = t.AbortToolCall
	}
	return traits
}
