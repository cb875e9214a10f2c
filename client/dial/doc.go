// Package dial builds the transport for an endpoint: the stdio, HTTP
// (Streamable, legacy SSE, seed 004's POST dialect), WebSocket (JSON-RPC,
// seed 004's tool frames, seed 003's gateway) or MCP-Flow transport a
// target names, configured from the transport options of the command line.
// It is where the transports meet the engine; the TUI reaches it only
// through the dial function its caller injects.
package dial
