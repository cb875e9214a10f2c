// Package ws is mcpscope's WebSocket client transport. No MCP revision
// defines WebSocket; mcpscope speaks the convention clients use (the
// subprotocol "mcp", one JSON-RPC message per text frame), seed 004's
// tool dialect ("tools-ws": {"id","name","arguments"} frames with a
// monotonic numeric id, answers matched by id, no handshake, no
// subprotocol) and seed 003's gateway (the MCP session as over "ws", the
// subprotocol "mcp" offered too, plus StreamMessage streams).
//
// The upgrade request and its answer are captured as HTTP frames, every
// message as a frame of its own, pings and pongs and the close code and
// reason as frames too. The transport moves bytes and reports frames; the
// engine's timers bound every wait, and a message over MaxFrameSize closes
// the connection with 1009, named in the error: at once when a frame's
// head announces it (frame_guard.go), as a masked frame from the server
// closes it with 1002. One exception: a wss:// upgrade through an HTTPS_PROXY
// runs its TLS inside net/http's CONNECT tunnel, out of the guard's reach;
// there coder/websocket's own checks alone apply (a message over
// MaxFrameSize still closes with 1009, once its bytes arrived).
package ws
