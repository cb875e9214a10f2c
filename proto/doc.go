// Package proto is the pure wire core of mcpscope: the JSON-RPC 2.0 message
// model, the MCP, MCP-Flow, interaction and gateway types, the JSON and CBOR
// codecs, the framers of every transport and the error-code names of each
// dialect. It does no I/O and starts no goroutines.
//
// Every framer returns, beside the decoded unit, the annotations of the bytes
// it read (see Field), so a hex view can label a header without knowing the
// protocol.
package proto
