// Package demohttp serves the demo server over HTTP (DESIGN §3.1, §3.5):
// one Handler for every HTTP dialect of MCP, and Serve to run it on a
// listener (`mcpscope serve --http ADDR`).
//
// PathMCP (/mcp) is Streamable HTTP. POST carries one JSON-RPC message and
// must Accept both application/json and text/event-stream (else 406); a
// body over Options.MaxBody is 413, a batch or garbage 400. Which flavour
// serves a POST is decided per request (Options.Eras narrows it):
//
//   - 2025-03-26 … 2025-11-25, in a session: initialize opens one and its
//     answer carries Mcp-Session-Id; every later request must carry it
//     (none: 400; unknown, expired or deleted: 404) and, if it sends
//     MCP-Protocol-Version, the negotiated version (else 400).
//     Notifications and responses get 202 with no body. A request is
//     answered on an SSE stream of its own (Options.JSONResponse: one
//     application/json body): a priming event first (an id, the retry
//     field, an empty data field), then "message" events whose ids
//     ("STREAM-SEQ") are unique in the session. The call's progress, log
//     lines and requests (elicitation/create) come on that stream; what
//     belongs to no call (interaction.prompt after an answer) comes on the
//     GET stream (GET with Mcp-Session-Id and Accept text/event-stream; one
//     at a time, a second is 409). GET with Last-Event-ID resumes the
//     stream that id belongs to: the events after it again, then the rest;
//     each stream keeps Options.ReplayEvents / ReplayBytes of written
//     events for that (an id older than that, or unknown: 400). DELETE
//     ends the session (204). notifications/cancelled cancels a call; its
//     stream then ends without an answer.
//   - 2026-07-28, stateless: a POST whose MCP-Protocol-Version is
//     2026-07-28 (Mcp-Session-Id is then ignored), or one without
//     Mcp-Session-Id that names 2026-07-28 in _meta or is server/discover.
//     MCP-Protocol-Version, Mcp-Method and Mcp-Name
//     (Base64 sentinel decoded) must match the body: else 400 with -32020;
//     an unsupported version is 400 with -32022 and the supported list.
//     server/discover is answered at once; any other request is served by
//     a demo connection of its own, as one JSON body when its answer comes
//     first, or as an SSE stream without ids when the call sends something
//     first; the client closing that stream cancels the call. -32601 comes
//     with 404. The server sends no requests (2026-07-28 uses MRTR, which
//     the demo does not offer): tools that ask the client fail. GET without
//     a session, and GET or DELETE naming 2026-07-28, are 405. Two tools
//     are served beside the demo's: route, whose region, priority and
//     dry_run arguments x-mcp-header mirrors into Mcp-Param headers
//     (checked against the body as the other headers are: a value without
//     its header, a header without its value or one that differs is
//     -32020), and route_clash, whose annotations are invalid (the name
//     Tenant twice), answered with no header checked. The Tasks extension
//     (SEP-2663) is declared in server/discover: a tools/call of ask_name,
//     slow_compute, failing_job, protocol_error_job or task_misbehave from
//     a client that declares it in _meta is answered with a task handle,
//     and tasks/get, tasks/update and tasks/cancel (Mcp-Name: the taskId)
//     follow the task, which outlives the request (tasks.go); greet is the
//     fixtures' sync-only tool. subscriptions/listen honours the filter's
//     notifications.taskIds alone: its stream acknowledges the ids of
//     known tasks (a client that declares the extension), then pushes a
//     notifications/tasks of each as it is and at each change, until the
//     client closes it (task_listen.go).
//
// PathSSE (/sse) is the legacy HTTP+SSE transport (2024-11-05): GET opens
// a session whose stream starts with an "endpoint" event naming
// /message?sessionId=ID (PathSSEAbsolute names it as an absolute URL);
// POSTs there get 202 (unknown session 404, none 400) and every message
// of the server comes as a "message" event on the stream, which lives as
// long as the GET.
//
// PathTools (/tools) is seed 004's tools-http: one tools/call per POST,
// no handshake, 405 for other HTTP methods. Without text/event-stream in
// Accept: 200 with the JSON-RPC response, or 4xx/5xx with the error
// envelope (400 for -32700/-32600/-32602, 404 for -32601, 500 else). With
// it: "result" events carrying {"content":[item]} fragments (the call's log
// lines as they come, then each content item of its result), ": heartbeat"
// comments every Options.Heartbeat while it works, then "complete" with the
// whole response (its content: every fragment's, in order) or "error" with
// the error envelope.
//
// Every path checks Origin against Options.Origins (403). Senders wait
// while a stream holds Options.Backlog bytes no connection wrote yet.
//
// The misbehave tool's HTTP modes (demo.HTTPModes) act on the call's own
// stream: cut_sse (an event with an id and a retry field, then the
// response ends, or with "abrupt":true the connection resets; the answer
// waits for a GET with Last-Event-ID; needs a session), expire_session
// (the answer comes, then the session is gone: 404; legacy: the stream
// ends), wrong_content_type (the answer as a text/html page), empty_event
// (an event with no data field), huge_event (one event whose data is
// "size" bytes, generated as it goes out) and heartbeats_only (": heartbeat"
// comments, never an answer, until cancelled). Where one cannot be done
// it is refused with -32602 saying what it needs.
package demohttp
