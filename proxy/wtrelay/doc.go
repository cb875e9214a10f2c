// Package wtrelay is the proxy's MCP-Flow relay (mcpscope proxy --listen
// ADDR wt://…): it serves WebTransport over HTTP/3 with a certificate of
// its own, whose hash a host pins, and relays each session a host opens
// to the same path of the server, dialed with mcpscope's TLS rules.
//
// The control stream is split into its frames (transports/flowstream),
// each relayed through proxy.Session.Relay in the encoding the initialize
// result negotiated; execution streams opened by either side get a twin
// on the other side and their bytes are copied as they arrive, each read
// captured as a stream chunk; datagrams go both ways, captured as such. A
// frame with a lying length or cut short is captured with its error and
// its bytes still relayed as they came.
package wtrelay
