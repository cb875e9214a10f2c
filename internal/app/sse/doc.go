// Package sse reads a text/event-stream body: the one parser every HTTP
// dialect of mcpscope shares (Streamable HTTP answers and its GET stream,
// legacy HTTP+SSE, seed 004's result/complete/error streams, and the doctor's
// look for a legacy stream's endpoint event).
//
// It follows the parsing rules of the WHATWG HTML standard's "Server-sent
// events" section: lines end in CRLF, LF or CR (a CR and the LF after it are
// one line end even when they arrive in different reads); one leading UTF-8
// byte order mark is skipped; "name:value" lines lose one space after the
// colon; a line without a colon is a field with an empty value; lines that
// start with a colon are comments; unknown fields are ignored; an event ends
// at a blank line; an id containing NUL is ignored and an empty id resets the
// last event ID; retry counts only when it is all ASCII digits.
//
// A debugger needs more than a browser, so Reader returns every block of
// lines that ends at a blank line, not only the ones the standard dispatches:
// Event.Dispatch says whether the standard would dispatch it (it had a data
// line). A priming event (an id and no data), a block of comments such as
// ": heartbeat", or a block of unknown fields comes back with Dispatch false,
// so a client tracks ids and the trace shows comments. Each event carries its
// exact byte span in the stream and its bytes (Event.Raw, the head only past
// Limits.MaxRaw) so a capture can make it a frame of its own, which
// proto.SSEEventFields annotates. An event cut by the end of the stream is
// not dispatched either; Next returns what arrived of it with a *CutError.
//
// Event.DataBytes keeps the bytes the server sent (no UTF-8 repair): whoever
// shows it sanitizes it. Raw and DataBytes are views into the Reader's
// buffer, valid until the next Next: reading an event costs no copy and no
// allocation (Event.Data and Event.Clone copy when a caller keeps one; a
// Reader told KeepEvents hands a large event over in the buffer it was read
// into, and reads on into a new one).
// Memory is bounded by Limits: a line or an event past its limit fails with
// a *LimitError before more is buffered.
package sse
