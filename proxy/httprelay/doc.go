// Package httprelay is the proxy's relay of the HTTP family: Streamable
// HTTP and the legacy HTTP+SSE transport.
//
// Relay serves a local endpoint (mcpscope proxy --listen ADDR URL): each
// request a host makes is sent to the remote server at the same path and
// query, with the host's headers (credentials included) untouched, and the
// server's answer comes back with its status and headers. A POST body is
// one message on its way to the server; a JSON answer is one message on
// its way back, and an SSE answer is relayed event by event, each flushed
// to the host as it arrives. The legacy stream's endpoint event, when it
// names the server's own origin, is rewritten to the proxy's.
//
// Bridge is the stdio bridge (mcpscope proxy URL): a host launches it and
// speaks newline-delimited JSON-RPC on its stdin and stdout; the bridge
// speaks Streamable HTTP (or legacy HTTP+SSE) to the server.
//
// Both hand every message to proxy.Session.Relay, which captures it and
// lets the steering and the faults act on it, and capture the HTTP heads
// and what is not a message (priming events, comments, error bodies)
// through the session's Tap. The bytes of an event stream between its
// events (a byte order mark, blank lines) reach the host as they came.
//
// A message past 16 MiB (maxBody: a POST body, a JSON answer, an SSE
// event) is not held: it is carried on whole as it is read, and captured
// by its first 64 KiB, its true size and a BodyTooLongError. Since it is
// never held, no pause or fault applies to it. The stdio bridge does not
// post a host's line past 16 MiB: it answers it with a JSON-RPC error
// (when the line's head names its id) and reads on.
package httprelay
