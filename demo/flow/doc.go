// Package flow serves the demo server over MCP-Flow (seed 000, DESIGN §3.2):
// JSON-RPC on a length-prefixed control stream of a WebTransport session at
// https://HOST:PORT/mcp, execution streams for payloads and datagrams for
// progress, audio and log lines.
//
// Per session the server accepts the first bidirectional stream as the
// control stream, enforces the frame size limit before allocating, answers
// initialize in JSON with the transport object and switches to the encoding
// picked from the client's list, tags execution streams with the request id,
// enforces maxConcurrentStreams (-32000), validates Origin against an
// allow-list, aborts work on $/cancel and drains then closes on $/shutdown.
//
// Without a certificate the server generates a self-signed ECDSA P-256 one
// for 127.0.0.1 and localhost, valid for less than 14 days as WebTransport's
// serverCertificateHashes requires; CertHash returns its pin.
//
// The demo core answers the clients unless Config.Engine names another
// Engine: mcpscope mock serves a recording's answers over the same server.
package flow
