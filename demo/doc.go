// Package demo is mcpscope's reference MCP server: the tools, resources and
// prompts that `mcpscope serve`, `mcpscope demo` and the tests talk to, for
// the dialects no public server speaks.
//
// The core here is transport-agnostic. A Server holds the registry of tools
// (name, description, inputSchema, handler), the built-in template set of
// seed 001 and the sandbox read_file serves. A Conn is one client
// connection: it dispatches JSON-RPC (initialize, ping, tools/*,
// resources/*, prompts/*, logging/setLevel; -32601 for the rest, including
// server/discover, because the demo speaks the legacy era) and runs tool
// calls. A transport (demo/flow for MCP-Flow over WebTransport, demo/stdio
// for line-delimited JSON) implements Outbound: it sends messages and gives
// each call an Emitter for progress, log lines, audio and execution streams.
package demo
