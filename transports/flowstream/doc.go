// Package flowstream reads MCP-Flow units from the QUIC streams that carry
// them: a control frame (length prefix and body) from the control stream,
// and the header that opens an execution stream. It reads the bytes and hands
// them to proto, which alone knows their layout; on a broken stream it still
// returns what arrived, so that it can be captured.
package flowstream
