package findings

import "slices"

// Code describes one check: its stable id, its severity and what a
// finding of it means. docs/findings.md lists the same.
type Code struct {
	ID       string
	Severity Severity
	Meaning  string // one line
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
	CodeStreamIndexGap     = "stream-index-gap"
	CodeFrameUndecoded     = "frame-undecoded"
	CodeMcpMethodMismatch  = "mcp-method-mismatch"
	CodeMcpNameMismatch    = "mcp-name-mismatch"
	CodeVersionMismatch    = "protocol-version-header-mismatch"
	CodeSessionNot404      = "unknown-session-not-404"
	CodeResultTypeMissing  = "result-type-missing"
	CodeStructuredInvalid  = "structured-content-invalid"
	CodeStructuredMissing  = "structured-content-missing"
	CodeParamHeaderInvalid = "x-mcp-header-invalid"
	CodeDeprecatedRoots    = "deprecated-roots"
	CodeDeprecatedSampling = "deprecated-sampling"
	CodeDeprecatedLogging  = "deprecated-logging"
	CodeDeprecatedHTTPSSE  = "deprecated-http-sse"
	CodeAnswerUnknownID    = "answer-unknown-id"
	CodeAnswerDuplicate    = "answer-duplicate"
)

// codes is every check, in the order docs/findings.md lists them.
var codes = []Code{
	{CodeStdoutNotJSON, Error, "a line on the server's stdout is not JSON (a server logging to stdout)"},
	{CodeStdoutNotJSONRPC, Error, "a line on the server's stdout is JSON but not a JSON-RPC message"},
	{CodeBodyNotJSONRPC, Error, "an HTTP body or SSE event's data is not a JSON-RPC message"},
	{CodeMessageNotJSONRPC, Error, "a WebSocket or MCP-Flow message is not a JSON-RPC message"},
	{CodeInvalidUTF8, Error, "a message holds bytes that are not UTF-8 (JSON text MUST be UTF-8); they were read as U+FFFD"},
	{CodeByteOrderMark, Warning, "a message starts with a UTF-8 byte order mark, which JSON text MUST NOT add; it was skipped"},
	{CodeFrameOverLimit, Error, "a line or message is longer than --max-frame-size; only its head was kept"},
	{CodeLengthOverMax, Error, "an MCP-Flow length prefix declares more bytes than --max-frame-size; the frame was not read"},
	{CodeLengthPastBody, Error, "an MCP-Flow length prefix declares more bytes than the stream held before it ended (a lying prefix)"},
	{CodeStreamIndexGap, Error, "a gateway stream chunk (seed 003) came with an index other than the next one"},
	{CodeFrameUndecoded, Error, "a frame from the server could not be decoded for another reason, named in the summary"},
	{CodeMcpMethodMismatch, Error, "a 2026-07-28 request's Mcp-Method header is missing or disagrees with the body's method"},
	{CodeMcpNameMismatch, Error, "a 2026-07-28 request's Mcp-Name header is missing or disagrees with the body's name or uri"},
	{CodeVersionMismatch, Error, "a 2026-07-28 request's MCP-Protocol-Version header disagrees with the protocolVersion in its _meta"},
	{CodeSessionNot404, Warning, "a request naming an Mcp-Session-Id was refused with 400, not the 404 the spec wants for an unknown session"},
	{CodeResultTypeMissing, Warning, "a result to a 2026-07-28 request carries no resultType (SDKs read it as complete; the Go SDK always writes it)"},
	{CodeStructuredInvalid, Error, "a tools/call result's structuredContent fails the tool's outputSchema"},
	{CodeStructuredMissing, Error, "a tools/call result lacks structuredContent though the tool declares an outputSchema"},
	{CodeParamHeaderInvalid, Error, "a listed tool's x-mcp-header annotations break the 2026-07-28 rules; clients drop the tool"},
	{CodeDeprecatedRoots, Warning, "roots in use on a 2026-07-28 session (deprecated by SEP-2577)"},
	{CodeDeprecatedSampling, Warning, "sampling in use on a 2026-07-28 session (deprecated by SEP-2577)"},
	{CodeDeprecatedLogging, Warning, "logging in use on a 2026-07-28 session (deprecated by SEP-2577)"},
	{CodeDeprecatedHTTPSSE, Warning, "the server speaks the legacy HTTP+SSE transport (2024-11-05), replaced by Streamable HTTP"},
	{CodeAnswerUnknownID, Error, "an answer names an id that no request in the other direction carried (a response to a request that never came)"},
	{CodeAnswerDuplicate, Error, "a request was answered a second time"},
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
