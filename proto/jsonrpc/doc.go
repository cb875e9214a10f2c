// Package jsonrpc is the JSON-RPC 2.0 layer of mcpscope's wire core:
// the Message model and its ids, envelope checks, the JSON and CBOR
// codecs of message bodies (CBOR per RFC 8949, with text keys), the
// annotation of body items, and newline framing. It does no I/O.
package jsonrpc
