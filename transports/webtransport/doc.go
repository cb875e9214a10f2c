// Package webtransport is the MCP-Flow transport (seed 000, DESIGN §3.2):
// JSON-RPC over a WebTransport session on HTTP/3.
//
// The client opens one bidirectional control stream and frames every
// message with a 4-byte big-endian length. The initialize request and its
// response are JSON; the engine offers in the request the encodings the
// transport declares (Describe), reads the server's pick from the result
// and tells the transport, and every later frame, both ways, uses it (CBOR
// or JSON). The server sends large payloads on unidirectional execution
// streams (8-byte header: request id, stream tag) that the client matches
// with the requests in flight and with the ref/stream items of their
// results, and small out-of-band updates as datagrams (progress, audio,
// log). Progress datagrams reach the engine as notifications/progress.
//
// Every control frame, stream header, stream chunk and datagram is
// reported to a capture.Sink as a Frame; stream ends and announced sizes
// are noted to sinks that take notes (capture.Tap). The connection follows the state
// machine of seed 000 §1: CLOSED → CONNECTED → CONTROL_STREAM_OPENED →
// INITIALIZING → READY → CLOSED.
package webtransport
