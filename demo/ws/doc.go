// Package demows serves the demo server over WebSocket (DESIGN §3.4,
// §3.5; `mcpscope serve --ws ADDR`): one Handler for three dialects, one
// per path, and Serve to run it on a listener.
//
// PathMCP (/mcp) is an MCP session: one JSON-RPC message per text message,
// the subprotocol "mcp" chosen when the client offers it. The demo core
// serves it as it serves stdio: the handshake, tools/list, tools/call,
// progress and log notifications, and the server's own requests
// (elicitation/create, interaction.prompt) whose answers the client sends
// back on the same connection.
//
// PathTools (/tools) is seed 004's tool dialect: no handshake; a text
// message {"id":N,"name":…,"arguments":…} calls a tool and is answered
// with a JSON-RPC envelope echoing the id (an unknown tool, a frame without
// a numeric id or name: a JSON-RPC error). The server asks nothing; its
// notifications go out as they are, and an unsolicited {"type":"ping"}
// comes first and every Options.PingInterval, for the client to show and
// ignore.
//
// PathGateway (/gateway) is seed 003's gateway: JSON-RPC as on PathMCP,
// plus StreamMessage streams (proto.StreamMessage; binary chunks as
// binary messages with the 24-byte header of proto.GatewayChunkHeader).
// A client starts a stream with a start message whose meta.method names a
// stream tool. What the server streams back is a stream of its own (seed
// 003 §8, OpenWrite): a fresh id, its start's meta.correlationId the
// client's correlationId, else the client's stream id. Errors about the
// client's stream, and the done answering an upload, carry the client's id.
// Seed 003 v1.0 has one connection per stream, and the server also takes
// several streams on one connection (Options.MaxStreams at once):
//
//   - system_binary_streams_out: start, binary chunks of Options.ChunkSize
//     bytes up to meta.totalSize (default 1 MiB), done with totalChunks,
//     totalBytes, duration_ms and sha256.
//   - system_binary_streams_in: the client's chunks (binary, or text
//     chunks whose data is counted as its JSON text) and done; the server
//     answers done with the summary of what arrived, or error on a bad
//     sequence: an index gap, a chunk or done for an unknown stream (one
//     that never started or has ended), more bytes than totalSize, or a
//     done whose totalChunks or totalBytes disagree.
//   - system_binary_streams_duplex: the server starts its stream at once
//     and echoes each chunk on it as it arrives (same index, same kind);
//     after the client's done, done with the summary on the server's stream.
//   - system_text_streams_out: text chunks, one JSON value of each kind.
//
// A stream the client leaves without a frame for Options.StreamIdle (30 s,
// seed 003 §7) ends with error -32000 "Stream timeout". tools/list on the
// gateway names the stream tools besides the demo's; a tools/call of one
// says to start it with a StreamMessage.
//
// The misbehave tool's WebSocket modes: close_1011 (the connection closes
// with 1011, the call unanswered) and oversized_message (one text message
// of "size" bytes, default just over 16 MiB) on every path; on the gateway
// also broken streams of the server's own, sent before the call's answer:
// rfc_guid (a binary chunk whose header carries the GUID in RFC byte order
// instead of .NET order), index_gap (chunks 0, 1, 3), unknown_stream (a
// chunk for a stream that never started) and error_mid_stream (two chunks,
// then error). The same broken streams answer a start whose meta.method is
// "misbehave" and whose meta.mode (or, without it, meta.name) names one.
package demows
