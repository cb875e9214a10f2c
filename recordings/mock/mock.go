// Package mock serves a recorded session as a deterministic server: each
// request is answered from the recording by method and parameters, the
// notifications the server sent are sent again in order, and a request
// the recording does not hold gets a JSON-RPC error naming the closest
// recorded one. It is what `mcpscope mock RECORDING` runs, over stdio
// (ServeStdio), Streamable HTTP (HTTPHandler) and WebSocket (WSHandler);
// any other binding drives a Conn itself.
//
// What a Recording holds. Load reads the client's requests (an mcpscope
// session, or a host's through `mcpscope proxy`) in the order they were
// sent, each with the server's answer (result or error) and the messages
// the server sent on the request's connection between the request and
// its answer: notifications, and requests of its own (sampling,
// elicitation, roots). A progress notification goes with the request
// whose progress token it names; a request of the server with the
// request the server answered right after the client's response to it,
// else the oldest request in flight that can ask one (a tool call, a
// prompt: not a ping or a listing); any other message with the latest request in flight. A
// request the client cancelled (notifications/cancelled) is no longer in
// flight. A server message outside every request, once the handshake is
// answered, is unsolicited. A request left unanswered is not served, and
// an answer of id null names none. A corrupt line is skipped and a torn
// last line ends the reading, both said in Warnings, as is a message of
// the client that is not JSON-RPC (nested too deep, say); a recording
// with no answered request is an error.
//
// How a request is matched. Its params are compared with the recorded
// requests' of the same method as replay --against compares answers:
// the engine's own _meta members are dropped, the volatile members
// (_meta, sessionId, progressToken, timestamps…) are ignored at any
// depth, and so are the paths given to Load (jsondiff patterns over the
// document {"params": …}, such as $.params.arguments.seed). Absent or
// null params equal {}. A request whose params, volatile members left
// out, are recorded is found by that key at once; any other is compared
// with at most maxScan recorded requests of its method. When several
// recorded requests match, a Conn serves them in recorded order and then
// repeats the last. initialize and server/discover are matched by
// method alone and answered with the recorded result, protocol version
// included, whatever version the client asks for: the mock is the
// server that was recorded. A ping the recording lacks is answered with
// {}.
//
// What a Conn sends. Each hands on, for a request, the server messages
// recorded in its span in their order, then the answer under the
// client's id as the client wrote it (any string, any JSON number: 1e2
// stays 1e2). A recorded progress notification carries the client's
// progress token instead of the recorded one, and is left out when the
// client gave none. The items of a batch are answered one by one as they
// would be alone, the bindings sending them as one JSON array (stdio,
// WebSocket) or one event each (Streamable HTTP); past MaxBatchAnswers
// bytes a request of the batch gets a short error instead. The server's
// own requests are sent with their recorded ids and the answer follows
// at once: a response of the client is accepted whenever it comes and
// changes nothing. For notifications/initialized, or after the first
// answer when the recording holds no initialize (2026-07-28), a Conn
// sends the unsolicited messages in recorded order, once; every other
// notification and every response of the client gets nothing. A binding with no stream
// open after a notification (Streamable HTTP) sends those messages before
// its next answer.
//
// An unmatched request gets -32602 (the method is recorded with other
// params) or -32601 (it is not), with a message naming the closest
// recorded request (for -32602, the first differing paths too, with the
// recorded and the sent value) and data {"closest": {"method", "params"}}: the same
// method with the fewest differing members, else the recorded method
// nearest by edit distance. Nothing depends on a clock or on chance.
package mock
