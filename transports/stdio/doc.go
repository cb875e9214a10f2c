// Package stdio is the stdio transport: it spawns an MCP server as a child
// process and speaks newline-delimited JSON-RPC over its standard streams
// (UTF-8, one message or batch per line, LF-terminated).
//
// Every line in either direction and every line of the server's stderr is
// reported to a capture.Sink as a Frame. Lines that are not JSON-RPC (the
// classic "stdout pollution" of a server that logs to stdout) and lines over
// the frame limit become error frames and are not delivered; reading goes on.
// When such a line shows the id of an answer (a broken envelope, or the
// kept head of an over-long line), a message carrying the reason as its
// Violation is delivered instead, so that the engine fails that request at
// once. An over-long line is never held in memory: only its head is kept
// and the rest is counted and dropped.
//
// The server runs in its own process group so that shutdown (close stdin →
// SIGTERM → SIGKILL) reaches the children of wrapper scripts too.
package stdio
