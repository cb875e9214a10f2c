package mcp

import (
	"strings"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Codes a server answers a cancelled request with. MCP-Flow's seed answers
// $/cancel with -32000 "Cancelled" (seed 000 §6), the same code its table
// names Stream Limit Exceeded; servers that follow the Language Server
// Protocol's convention use -32800 RequestCancelled.
const (
	CodeFlowCancelled    = -32000
	CodeRequestCancelled = -32800
)

// NameCancelled is the name of an error that answers a cancelled request.
const NameCancelled = "Cancelled"

// ErrorContext is what a reader knows of the request an error answers,
// beside the dialect: the same code names different things in different
// contexts (-32000 on MCP-Flow is Stream Limit Exceeded for a call that
// would open one stream too many, and the answer to a $/cancel).
type ErrorContext struct {
	// Method is the method of the request answered; "" when unknown.
	Method string
	// Cancelled says a cancellation of the request was sent or received
	// before the error arrived.
	Cancelled bool
}

// ErrorNameIn names the code of e as a reader of dialect d reads it in
// context c: the JSON-RPC 2.0 names always; the dialect's name when the
// server's message says it; -32000 and -32800 as the
// cancellation when the request was cancelled or the server's message
// says it was; MCP-Flow's Stream Limit Exceeded only for a request that
// may open an execution stream (tools/call, or a request not known);
// otherwise ErrorName. It returns "" for a code nobody names.
func ErrorNameIn(d Dialect, e *jsonrpc.Error, c ErrorContext) string {
	if e == nil {
		return ""
	}
	if name, ok := standardNames[e.Code]; ok {
		return name
	}
	d = dialectOfRequest(d, c.Method)
	if name := ErrorName(d, e.Code); name != genericServerError && mentions(e.Message, name) {
		return name // the server's words pick the meaning of a code with two
	}
	if (e.Code == CodeFlowCancelled || e.Code == CodeRequestCancelled) && (c.Cancelled || saysCancelled(e.Message)) {
		return NameCancelled
	}
	if d == DialectMCPFlow && e.Code == CodeFlowStreamLimitExceeded && !opensStreams(c.Method) {
		return ErrorName(DialectJSONRPC, e.Code)
	}
	return ErrorName(d, e.Code)
}

// ErrorNameBeside is the name to show beside the server's message: the
// name ErrorNameIn gives, or "" when the message already says it, so that
// a name never repeats the server's words nor reads against them.
func ErrorNameBeside(d Dialect, e *jsonrpc.Error, c ErrorContext) string {
	name := ErrorNameIn(d, e, c)
	if name == "" || e.Message == "" {
		return name
	}
	if mentions(e.Message, name) || name == NameCancelled && saysCancelled(e.Message) {
		return ""
	}
	return name
}

// mentions reports whether msg holds name, whatever the case.
func mentions(msg, name string) bool {
	return name != "" && strings.Contains(strings.ToLower(msg), strings.ToLower(name))
}

// saysCancelled reports whether a server's message says the request was
// cancelled ("Cancelled", "request canceled", "Operation cancelled by
// the client").
func saysCancelled(msg string) bool {
	return strings.Contains(strings.ToLower(msg), "cancel")
}

// opensStreams reports whether a request of method may open an MCP-Flow
// execution stream (seed 000 §5: a tools/call result refers to one); an
// unknown method may.
func opensStreams(method string) bool {
	return method == "" || method == MethodToolsCall
}

// dialectOfRequest is the dialect that names the codes of an answer to a
// request of method on a connection of dialect d. The requests of
// interactive sessions (interaction.*, capabilities) have codes of their
// own on any connection; MCP-Flow and interactive sessions carry MCP's own
// requests beside theirs, and an answer to one of those reads in MCP's
// words (-32002 on resources/read is Resource not found, not MCP-Flow's
// Stream Injection nor SESSION_EXPIRED). MCP-Flow's stream codes keep their
// names where a stream may open; an unknown method keeps d.
func dialectOfRequest(d Dialect, method string) Dialect {
	switch {
	case method == "":
		return d
	case strings.HasPrefix(method, "interaction.") || method == MethodCapabilities:
		return DialectInteraction
	case d == DialectMCPFlow && !opensStreams(method) && !strings.HasPrefix(method, "$/"):
		return DialectMCP
	case d == DialectInteraction:
		return DialectMCP
	}
	return d
}
