// Package proto is the pure wire core of mcpscope. It does no I/O and
// starts no goroutines: it decodes bytes it is handed. Its sub-packages
// are split by protocol:
//
//   - jsonrpc: the JSON-RPC 2.0 message model, ids, the envelope, and the
//     JSON and CBOR codecs of message bodies;
//   - mcp: MCP methods, lifecycle, features, versions, notifications,
//     interactive sessions and the error-code names of each dialect;
//   - flow: MCP-Flow framing (control frames, execution stream headers,
//     datagrams) and its messages;
//   - gateway: the gateway streaming dialect (StreamMessage, chunk frames,
//     GUIDs) and the WebSocket tool dialect;
//   - httphead: HTTP heads, header redaction, statuses and SSE fields.
//
// This package holds what they share: Field, the annotation every framer
// returns beside the decoded unit (so a hex view can label a header without
// knowing the protocol), the Encoding of a body, and the helpers that build
// fields of fixed-size headers.
package proto
