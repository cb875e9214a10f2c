package mcp

import "fmt"

// Dialect is a family of servers whose error codes share one meaning. The
// same code means different things in different dialects (-32002 is
// "Resource not found" in MCP, "Stream Injection" in MCP-Flow,
// "SESSION_EXPIRED" in interactive sessions), so a name is looked up in the
// dialect in use.
type Dialect uint8

// Dialects of error codes.
const (
	DialectJSONRPC        Dialect = iota // plain JSON-RPC 2.0
	DialectMCP                           // Model Context Protocol
	DialectMCPFlow                       // MCP-Flow over WebTransport (seed 000 §4)
	DialectInteraction                   // interactive sessions (seed 002, "Error Codes")
	DialectStdioTemplates                // the stdio template server (seed 001, custom codes)
	DialectGateway                       // the gateway WebSocket streaming (seed 003)
)

// Codes of JSON-RPC 2.0, shared by every dialect.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// Codes of MCP's 2026-07-28 revision.
const (
	// CodeHeaderMismatch: an HTTP header (MCP-Protocol-Version, Mcp-Method,
	// Mcp-Name) disagrees with the body.
	CodeHeaderMismatch = -32020
	// CodeMissingClientCapability: the request needs a client capability
	// the client did not declare.
	CodeMissingClientCapability = -32021
	// CodeUnsupportedVersion: the request names a protocol version the
	// server does not speak; its data is an UnsupportedVersionData.
	CodeUnsupportedVersion = -32022
)

// Codes of MCP-Flow (seed 000 §4.2).
const (
	CodeFlowStreamLimitExceeded    = -32000
	CodeFlowInvalidStreamReference = -32001
	CodeFlowStreamInjection        = -32002
	CodeFlowEncodingMismatch       = -32003
	CodeFlowDatagramNotSupported   = -32004
)

// Codes of interactive sessions (seed 002).
const (
	CodeSessionNotFound        = -32001
	CodeSessionExpired         = -32002
	CodeInvalidStateTransition = -32003
	CodeValidationFailed       = -32004
	CodeInteractionTimeout     = -32005
	CodeAlreadyCancelled       = -32006
	CodeNotInteractive         = -32007
)

// Codes of the stdio template server (seed 001).
const (
	CodeTemplateNotFound          = -32000
	CodeInvalidTemplateURI        = -32001
	CodeParameterValidationFailed = -32002
	CodeRateLimitExceeded         = -32003
)

// genericServerError is JSON-RPC's name for its range of
// implementation-defined server errors.
const genericServerError = "Server error"

// CodeServerError is the gateway's custom error (seed 003), and the first of
// JSON-RPC's range of implementation-defined server errors (-32000…-32099).
const CodeServerError = -32000

// standardNames are the names JSON-RPC 2.0 gives its codes.
var standardNames = map[int]string{
	CodeParseError:     "Parse error",
	CodeInvalidRequest: "Invalid Request",
	CodeMethodNotFound: "Method not found",
	CodeInvalidParams:  "Invalid params",
	CodeInternalError:  "Internal error",
}

// dialectNames are the names each dialect gives its own codes, in the words
// of its spec.
var dialectNames = map[Dialect]map[int]string{
	DialectMCP: {
		-1:                     "User rejected sampling request",
		-32002:                 "Resource not found",
		-32020:                 "Header mismatch",
		-32021:                 "Missing required client capability",
		CodeUnsupportedVersion: "Unsupported protocol version",
		-32042:                 "URL elicitation required",
	},
	DialectMCPFlow: {
		CodeFlowStreamLimitExceeded:    "Stream Limit Exceeded",
		CodeFlowInvalidStreamReference: "Invalid Stream Reference",
		CodeFlowStreamInjection:        "Stream Injection",
		CodeFlowEncodingMismatch:       "Encoding Mismatch",
		CodeFlowDatagramNotSupported:   "Datagram Not Supported",
	},
	DialectInteraction: {
		CodeSessionNotFound:        "SESSION_NOT_FOUND",
		CodeSessionExpired:         "SESSION_EXPIRED",
		CodeInvalidStateTransition: "INVALID_STATE_TRANSITION",
		CodeValidationFailed:       "VALIDATION_FAILED",
		CodeInteractionTimeout:     "TIMEOUT",
		CodeAlreadyCancelled:       "ALREADY_CANCELLED",
		CodeNotInteractive:         "NOT_INTERACTIVE",
	},
	DialectStdioTemplates: {
		CodeTemplateNotFound:          "Template not found",
		CodeInvalidTemplateURI:        "Invalid template URI",
		CodeParameterValidationFailed: "Parameter validation failed",
		CodeRateLimitExceeded:         "Rate limit exceeded",
	},
	DialectGateway: {
		CodeServerError: genericServerError,
	},
}

// ErrorName names code as dialect d does: the JSON-RPC 2.0 names for
// -32700…-32603 in every dialect, then the dialect's own, then "Server
// error" for the rest of -32000…-32099. It returns "" for a code nobody
// names; callers show the raw code and message in any case.
func ErrorName(d Dialect, code int) string {
	if name, ok := standardNames[code]; ok {
		return name
	}
	if name, ok := dialectNames[d][code]; ok {
		return name
	}
	if code <= -32000 && code >= -32099 {
		return genericServerError
	}
	return ""
}

// String names the dialect: "jsonrpc", "mcp", "mcp-flow", "interaction",
// "stdio-templates", "gateway".
func (d Dialect) String() string {
	switch d {
	case DialectJSONRPC:
		return "jsonrpc"
	case DialectMCP:
		return "mcp"
	case DialectMCPFlow:
		return "mcp-flow"
	case DialectInteraction:
		return "interaction"
	case DialectStdioTemplates:
		return "stdio-templates"
	case DialectGateway:
		return "gateway"
	}
	return fmt.Sprintf("dialect %d", uint8(d))
}
