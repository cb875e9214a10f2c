// Package gatewaystream runs one gateway stream (seed 003) over a
// WebSocket connection of its own: it sends the start, uploads a file or
// standard input as binary or text chunks, then the done, follows the
// streams the server opens (saving each under a directory, named by its
// GUID) and waits, within the run's time limits, until the server ends
// what it answers. `mcpscope stream` and the TUI's stream key run it alike.
package gatewaystream
