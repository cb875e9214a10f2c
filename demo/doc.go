// Package demo is mcpscope's reference MCP server: the tools, resources and
// prompts that `mcpscope serve`, `mcpscope demo` and the tests talk to, for
// the dialects no public server speaks.
//
// The core here is transport-agnostic. A Server holds the registry of tools
// (name, description, inputSchema, handler), the built-in template set of
// seed 001 and the sandbox read_file serves. A Conn is one client
// connection: it dispatches JSON-RPC (initialize, ping, tools/*,
// resources/*, prompts/*, logging/setLevel, capabilities and the
// interaction.* methods of seed 002; -32601 for the rest, including
// server/discover, because a connection speaks the legacy era; a transport
// that serves 2026-07-28 requests answers server/discover with
// Server.Discover), runs tool
// calls, and sends requests of its own to the client (Conn.Request: integer ids
// 1, 2, … of its own; the client's responses come back through Handle).
//
// Interactive sessions (seed 002) are wizards declared as data (steps of
// a prompt and a server-side check): book_trip, register_user,
// upload_report and book_trip_stateless, whose sessionId is a signed token
// carrying the whole state. Prompts after the first go out as
// interaction.prompt requests, the end as interaction.complete, and a
// timeout warning as interaction.continue. A plain tools/call of a wizard
// takes every answer as arguments. elicit_all and elicit_url ask through
// MCP's elicitation/create.
//
// A transport (demo/flow for MCP-Flow over WebTransport, demo/stdio
// for line-delimited JSON, demo/http for Streamable HTTP, legacy SSE and
// seed 004) implements Outbound: it sends messages and gives each call an
// Emitter for progress, log lines, audio and execution streams. One that
// tells calls apart implements ContextSender: the messages a call sends
// come to it with the call's context (CallID).
package demo
