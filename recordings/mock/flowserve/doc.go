// Package flowserve serves a mock of a recorded session over MCP-Flow
// (WebTransport): the demo's MCP-Flow server (demo/flow) with an engine
// that hands every control frame, as JSON, to one Answerer per session
// and writes back what it returns, in the encoding the client chose
// (CBOR when negotiated). Execution streams and datagrams are not
// replayed: a recorded result that refers to a stream goes out as
// recorded, followed by a $/streamError for the stream, and a note says
// so once.
package flowserve
