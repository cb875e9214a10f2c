// Package stdio serves the demo server over standard input and output:
// line-delimited JSON-RPC (seed 001), one message per line, in UTF-8.
//
// This transport has no execution streams and no datagrams, so the tools
// degrade: read_file answers inline (an embedded resource blob, base64) up
// to the server's inline limit and refuses larger payloads with -32602 "too
// large for stdio; use MCP-Flow"; analyze reports through
// notifications/progress (when the request carries _meta.progressToken) and
// notifications/message; tone answers one inline WAV clip (audio content)
// of at most 10 s; misbehave supports datagram_flood and
// notification_flood (both as notifications/message lines), stream_error
// is refused, and of the wire-level modes only drop, which stops serving
// without answering. notifications/cancelled
// aborts a call, which is then not answered (as MCP says).
package stdio
