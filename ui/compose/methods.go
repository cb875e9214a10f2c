package compose

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// composeMethod is one method the composer offers: its name, whether it is
// sent as a notification, and what it does in one line.
type composeMethod struct {
	name   string
	notify bool
	desc   string
}

// mcpMethods are the MCP methods a client sends, requests first.
var mcpMethods = []composeMethod{
	{mcp.MethodPing, false, "check that the server answers"},
	{mcp.MethodToolsList, false, "list the server's tools"},
	{mcp.MethodToolsCall, false, "call a tool with arguments"},
	{mcp.MethodResourcesList, false, "list the server's resources"},
	{mcp.MethodResourceTemplatesList, false, "list the server's resource templates"},
	{mcp.MethodResourcesRead, false, "read a resource by URI"},
	{mcp.MethodResourcesSubscribe, false, "ask for updates of a resource"},
	{mcp.MethodResourcesUnsubscribe, false, "stop the updates of a resource"},
	{mcp.MethodPromptsList, false, "list the server's prompts"},
	{mcp.MethodPromptsGet, false, "get a prompt filled with arguments"},
	{mcp.MethodCompletionComplete, false, "complete an argument of a prompt or template"},
	{mcp.MethodLoggingSetLevel, false, "set the lowest log level the server sends"},
	{mcp.MethodInitialize, false, "start a 2025-11-25 session (done at connect)"},
	{mcp.MethodDiscover, false, "ask a 2026-07-28 server what it supports"},
	{mcp.MethodSubscriptionsListen, false, "listen for list changes and updates (2026-07-28)"},
	{mcp.MethodNotifyInitialized, true, "say the initialize handshake is complete"},
	{mcp.MethodNotifyCancelled, true, "tell the server a request is abandoned"},
	{mcp.MethodNotifyProgress, true, "report progress of a server request"},
	{mcp.MethodNotifyRootsListChanged, true, "say the client's roots changed"},
}

// flowMethods are the MCP-Flow control methods a client sends.
var flowMethods = []composeMethod{
	{flow.MethodFlowCancel, true, "abort a request (MCP-Flow)"},
	{flow.MethodFlowShutdown, true, "stop opening streams, drain and close (MCP-Flow)"},
}

// interactionMethods are the methods of interactive sessions (seed 002).
var interactionMethods = []composeMethod{
	{mcp.MethodCapabilities, false, "ask whether the server is interactive"},
	{mcp.MethodInteractionStart, false, "start an interactive session with a tool"},
	{mcp.MethodInteractionRespond, false, "answer the current prompt of a session"},
	{mcp.MethodInteractionCancel, false, "cancel an interactive session"},
	{mcp.MethodInteractionGetState, false, "read the state of an interactive session"},
}

// composeMethods is the catalogue for a dialect: MCP, the MCP-Flow control
// methods on MCP-Flow, then those of interactive sessions.
func composeMethods(d mcp.Dialect) []composeMethod {
	out := append([]composeMethod(nil), mcpMethods...)
	if d == mcp.DialectMCPFlow {
		out = append(out, flowMethods...)
	}
	return append(out, interactionMethods...)
}

// lookupMethod finds a method of the catalogue by name.
func lookupMethod(methods []composeMethod, name string) (composeMethod, bool) {
	for _, m := range methods {
		if m.name == name {
			return m, true
		}
	}
	return composeMethod{}, false
}

// customMethod describes a method the catalogue does not know: by the
// protocol's naming, "notifications/…" and "$/…" are notifications.
func customMethod(name string) composeMethod {
	notify := strings.HasPrefix(name, "notifications/") || strings.HasPrefix(name, "$/")
	return composeMethod{name: name, notify: notify, desc: "custom method"}
}

// paramsTemplates are the params the editor starts with, per method; the
// others start with {}.
var paramsTemplates = map[string]string{
	mcp.MethodToolsCall:            `{"name":"","arguments":{}}`,
	mcp.MethodPromptsGet:           `{"name":"","arguments":{}}`,
	mcp.MethodResourcesRead:        `{"uri":""}`,
	mcp.MethodResourcesSubscribe:   `{"uri":""}`,
	mcp.MethodResourcesUnsubscribe: `{"uri":""}`,
	mcp.MethodLoggingSetLevel:      `{"level":"info"}`,
	mcp.MethodCompletionComplete:   `{"ref":{"type":"ref/prompt","name":""},"argument":{"name":"","value":""}}`,
	mcp.MethodInitialize: `{"protocolVersion":"` + mcp.LatestLegacy +
		`","capabilities":{},"clientInfo":{"name":"mcpscope","version":"` + client.Version + `"}}`,
	mcp.MethodNotifyCancelled:     `{"requestId":0,"reason":"` + screen.CancelReason + `"}`,
	mcp.MethodNotifyProgress:      `{"progressToken":"","progress":0}`,
	flow.MethodFlowCancel:         `{"requestId":0,"reason":"` + screen.CancelReason + `"}`,
	mcp.MethodInteractionStart:    `{"toolName":"","initialParams":{}}`,
	mcp.MethodInteractionRespond:  `{"sessionId":"","response":{"value":""}}`,
	mcp.MethodInteractionCancel:   `{"sessionId":"","reason":"` + screen.CancelReason + `"}`,
	mcp.MethodInteractionGetState: `{"sessionId":""}`,
}

// paramsTemplate is what the editor starts with for method.
func paramsTemplate(method string) json.RawMessage {
	if t, ok := paramsTemplates[method]; ok {
		return json.RawMessage(t)
	}
	return json.RawMessage(`{}`)
}

// composeSchema accepts any params JSON-RPC allows (a structured value or
// none): the composer is for sending what a server might refuse, too, so
// the method's own schema is the server's to enforce.
var composeSchema = json.RawMessage(`{"type":["object","array","null"]}`)
