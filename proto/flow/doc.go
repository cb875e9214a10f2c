// Package flow holds MCP-Flow (seed 000) framing: the length-prefixed
// control frame, the execution stream header, the datagram header and
// payloads, and the flow-specific messages ($/cancel, $/streamError, the
// transport offer). Every parser returns the annotations of the bytes it
// read. Reading frames from a stream belongs to the transports.
package flow
