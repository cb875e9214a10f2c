// Package mcphttp is the HTTP family of MCP transports on the client side:
// Streamable HTTP in both eras (2025-03-26 … 2025-11-25 sessions, and the
// stateless 2026-07-28 revision) and the legacy HTTP+SSE transport of
// 2024-11-05, with the fallback from the one to the other the spec
// describes.
//
// Every message goes out as one POST. Its answer comes back as a JSON body
// or as an SSE stream; each SSE event is captured as a frame of its own,
// with its fields annotated, and the JSON-RPC message it carries decoded.
// A stream that breaks before the answer is resumed with GET and
// Last-Event-ID after the server's retry delay. A session the server
// forgot (404) is initialized again, transparently, and the request sent
// once more. The transport moves bytes and reports frames; the timeouts
// of a request stay the engine's.
package mcphttp
