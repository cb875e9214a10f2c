// Package wsrelay is the proxy's WebSocket relay (mcpscope proxy --listen
// ADDR ws://…): every WebSocket connection a host opens to the proxy, on
// any path, is relayed to the same path of the server, each its own
// capture connection. The server is dialed first, with the subprotocols
// the host offered and the host's own headers (Authorization, cookies,
// Origin) untouched; the host is then accepted with the subprotocol the
// server chose, or none. Each message goes through proxy.Session.Relay
// in its own message type; a close code and reason pass through both
// ways, and one side closing closes the other.
//
// With the gateway dialect (seed 003) the StreamMessages and binary
// chunks of a gateway stream are captured as stream frames and passed on
// as they came; JSON-RPC on the same connection is relayed as messages.
package wsrelay
