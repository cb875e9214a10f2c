package findings

import "slices"

// Code describes one check: its stable id, its severity and what a
// finding of it means. docs/findings.md lists the same.
type Code struct {
	ID       string
	Severity Severity
	Meaning  string // one line
	Fix      string // one line: the usual fix
}

// The codes' ids.
const (
	CodeStdoutNotJSON      = "stdout-not-json"
	CodeStdoutNotJSONRPC   = "stdout-not-jsonrpc"
	CodeBodyNotJSONRPC     = "body-not-jsonrpc"
	CodeMessageNotJSONRPC  = "message-not-jsonrpc"
	CodeInvalidUTF8        = "invalid-utf8"
	CodeByteOrderMark      = "byte-order-mark"
	CodeFrameOverLimit     = "frame-over-limit"
	CodeLengthOverMax      = "length-prefix-over-max"
	CodeLengthPastBody     = "length-prefix-past-body"
	CodeLengthShort        = "length-prefix-short"
	CodeStreamIndexGap     = "stream-index-gap"
	CodeFrameUndecoded     = "frame-undecoded"
	CodeMcpMethodMismatch  = "mcp-method-mismatch"
	CodeMcpNameMismatch    = "mcp-name-mismatch"
	CodeVersionMismatch    = "protocol-version-header-mismatch"
	CodeSessionNot404      = "unknown-session-not-404"
	CodeResultTypeMissing  = "result-type-missing"
	CodeStructuredInvalid  = "structured-content-invalid"
	CodeStructuredMissing  = "structured-content-missing"
	CodeStructuredNotObj   = "structured-content-not-object"
	CodeParamHeaderInvalid = "x-mcp-header-invalid"
	CodeDeprecatedRoots    = "deprecated-roots"
	CodeDeprecatedSampling = "deprecated-sampling"
	CodeDeprecatedLogging  = "deprecated-logging"
	CodeDeprecatedHTTPSSE  = "deprecated-http-sse"
	CodeAnswerUnknownID    = "answer-unknown-id"
	CodeAnswerDuplicate    = "answer-duplicate"
)

// CodeEncodingMismatch is the id of the check on MCP-Flow frames that are
// not in the negotiated encoding.
const CodeEncodingMismatch = "encoding-mismatch"

// codes is every check, in the order docs/findings.md lists them.
var codes = []Code{
	{CodeStdoutNotJSON, Error, "a line on the server's stdout is not JSON (a server logging to stdout)", "write only JSON-RPC messages on stdout; log to stderr"},
	{CodeStdoutNotJSONRPC, Error, "a line on the server's stdout is JSON but not a JSON-RPC message", "write only JSON-RPC 2.0 messages on stdout; log to stderr"},
	{CodeBodyNotJSONRPC, Error, "an HTTP body or SSE event's data is not a JSON-RPC message, or a POST was answered with a success whose Content-Type is neither application/json nor text/event-stream", "answer a POST with a JSON-RPC message (application/json) or an SSE stream of them"},
	{CodeMessageNotJSONRPC, Error, "a WebSocket or MCP-Flow message is not a JSON-RPC message", "send only JSON-RPC 2.0 messages on the control channel"},
	{CodeInvalidUTF8, Error, "a message holds bytes that are not UTF-8 (JSON text MUST be UTF-8); they were read as U+FFFD", "encode every message as UTF-8"},
	{CodeByteOrderMark, Error, "a message starts with a UTF-8 byte order mark, which JSON text MUST NOT add; it was skipped", "write messages without a byte order mark"},
	{CodeFrameOverLimit, Error, "a line on the server's stdout, an SSE event or a WebSocket message is longer than --max-frame-size; only a line's head was kept, the others were refused", "send smaller messages (paginate, or move bulk data to a resource), or raise --max-frame-size"},
	{CodeLengthOverMax, Error, "an MCP-Flow length prefix declares more bytes than --max-frame-size; the frame was not read", "send smaller frames, or raise --max-frame-size"},
	{CodeLengthShort, Error, "an MCP-Flow length prefix declares fewer bytes than its message holds: the message is cut short and its rest read as the next frame", "write the body's true length in the prefix"},
	{CodeLengthPastBody, Error, "an MCP-Flow length prefix declares more bytes than the stream held before it ended (a lying prefix)", "write the body's true length in the prefix, and the whole body after it"},
	{CodeEncodingMismatch, Error, "an MCP-Flow control frame is not in the encoding the session negotiated (-32003); it was not delivered", "send every control frame in the negotiated encoding (CBOR or JSON)"},
	{CodeStreamIndexGap, Error, "a gateway stream chunk (seed 003) came with an index other than the next one", "number a stream's chunks 0, 1, 2… with none skipped or repeated"},
	{CodeFrameUndecoded, Error, "a frame from the server could not be decoded for another reason, named in the summary", "see the summary for what mcpscope could not read"},
	{CodeMcpMethodMismatch, Error, "a 2026-07-28 request's Mcp-Method header is missing or disagrees with the body's method", "send Mcp-Method with the body's method on every 2026-07-28 request"},
	{CodeMcpNameMismatch, Error, "a 2026-07-28 request's Mcp-Name header is missing or disagrees with the body's name or uri", "send Mcp-Name with the tool's or prompt's name or the resource's uri (Base64 sentinel for non-ASCII)"},
	{CodeVersionMismatch, Error, "a 2026-07-28 request's MCP-Protocol-Version header disagrees with the protocolVersion in its _meta", "send the same version in MCP-Protocol-Version and in _meta"},
	{CodeSessionNot404, Warning, "a request naming an Mcp-Session-Id was refused with 400, not the 404 the spec wants for an unknown session", "answer a request for a session the server does not know with 404, so the client starts a new one"},
	{CodeResultTypeMissing, Warning, "a result to a 2026-07-28 request carries no resultType (SDKs read it as complete; the Go SDK always writes it)", "add \"resultType\": \"complete\" to every result of a 2026-07-28 request"},
	{CodeStructuredInvalid, Error, "a tools/call result's structuredContent fails the tool's outputSchema", "return structuredContent that the tool's outputSchema accepts, or correct the schema"},
	{CodeStructuredMissing, Error, "a tools/call result lacks structuredContent though the tool declares an outputSchema", "return structuredContent with every result of a tool that declares an outputSchema"},
	{CodeStructuredNotObj, Error, "a tools/call result's structuredContent is not a JSON object (an array, a scalar or null)", "return structuredContent as a JSON object; wrap an array or a scalar in one"},
	{CodeParamHeaderInvalid, Error, "a listed tool's x-mcp-header annotations break the 2026-07-28 rules; clients drop the tool", "annotate only string, integer or boolean properties, each with its own HTTP token name"},
	{CodeDeprecatedRoots, Warning, "roots in use on a 2026-07-28 session (deprecated by SEP-2577)", "pass paths through tool parameters, resource URIs or configuration instead"},
	{CodeDeprecatedSampling, Warning, "sampling in use on a 2026-07-28 session (deprecated by SEP-2577)", "call an LLM provider's API from the server instead"},
	{CodeDeprecatedLogging, Warning, "logging in use on a 2026-07-28 session (deprecated by SEP-2577)", "log to stderr (stdio) or through OpenTelemetry instead"},
	{CodeDeprecatedHTTPSSE, Warning, "the server speaks the legacy HTTP+SSE transport (2024-11-05), replaced by Streamable HTTP", "serve Streamable HTTP"},
	{CodeAnswerUnknownID, Error, "an answer names an id that no request in the other direction carried (a response to a request that never came)", "answer only requests that were sent, with their own id"},
	{CodeAnswerDuplicate, Error, "a request was answered a second time", "answer each request once"},
}

// Codes lists every check, in a stable order.
func Codes() []Code { return slices.Clone(codes) }

// severityOf is the severity of the code with id.
func severityOf(id string) Severity {
	for _, c := range codes {
		if c.ID == id {
			return c.Severity
		}
	}
	return Note
}
