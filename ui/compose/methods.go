package compose

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
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
	{proto.MethodPing, false, "check that the server answers"},
	{proto.MethodToolsList, false, "list the server's tools"},
	{proto.MethodToolsCall, false, "call a tool with arguments"},
	{proto.MethodResourcesList, false, "list the server's resources"},
	{proto.MethodResourceTemplatesList, false, "list the server's resource templates"},
	{proto.MethodResourcesRead, false, "read a resource by URI"},
	{proto.MethodResourcesSubscribe, false, "ask for updates of a resource"},
	{proto.MethodResourcesUnsubscribe, false, "stop the updates of a resource"},
	{proto.MethodPromptsList, false, "list the server's prompts"},
	{proto.MethodPromptsGet, false, "get a prompt filled with arguments"},
	{proto.MethodCompletionComplete, false, "complete an argument of a prompt or template"},
	{proto.MethodLoggingSetLevel, false, "set the lowest log level the server sends"},
	{proto.MethodInitialize, false, "start a 2025-11-25 session (done at connect)"},
	{proto.MethodDiscover, false, "ask a 2026-07-28 server what it supports"},
	{proto.MethodSubscriptionsListen, false, "listen for list changes and updates (2026-07-28)"},
	{proto.MethodNotifyInitialized, true, "say the initialize handshake is complete"},
	{proto.MethodNotifyCancelled, true, "tell the server a request is abandoned"},
	{proto.MethodNotifyProgress, true, "report progress of a server request"},
	{proto.MethodNotifyRootsListChanged, true, "say the client's roots changed"},
}

// flowMethods are the MCP-Flow control methods a client sends.
var flowMethods = []composeMethod{
	{proto.MethodFlowCancel, true, "abort a request (MCP-Flow)"},
	{proto.MethodFlowShutdown, true, "stop opening streams, drain and close (MCP-Flow)"},
}

// interactionMethods are the methods of interactive sessions (seed 002).
var interactionMethods = []composeMethod{
	{proto.MethodCapabilities, false, "ask whether the server is interactive"},
	{proto.MethodInteractionStart, false, "start an interactive session with a tool"},
	{proto.MethodInteractionRespond, false, "answer the current prompt of a session"},
	{proto.MethodInteractionCancel, false, "cancel an interactive session"},
	{proto.MethodInteractionGetState, false, "read the state of an interactive session"},
}

// composeMethods is the catalogue for a dialect: MCP, the MCP-Flow control
// methods on MCP-Flow, then those of interactive sessions.
func composeMethods(d proto.Dialect) []composeMethod {
	out := append([]composeMethod(nil), mcpMethods...)
	if d == proto.DialectMCPFlow {
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
	proto.MethodToolsCall:            `{"name":"","arguments":{}}`,
	proto.MethodPromptsGet:           `{"name":"","arguments":{}}`,
	proto.MethodResourcesRead:        `{"uri":""}`,
	proto.MethodResourcesSubscribe:   `{"uri":""}`,
	proto.MethodResourcesUnsubscribe: `{"uri":""}`,
	proto.MethodLoggingSetLevel:      `{"level":"info"}`,
	proto.MethodCompletionComplete:   `{"ref":{"type":"ref/prompt","name":""},"argument":{"name":"","value":""}}`,
	proto.MethodInitialize: `{"protocolVersion":"` + proto.LatestLegacy +
		`","capabilities":{},"clientInfo":{"name":"mcpscope","version":"` + client.Version + `"}}`,
	proto.MethodNotifyCancelled:     `{"requestId":0,"reason":"` + screen.CancelReason + `"}`,
	proto.MethodNotifyProgress:      `{"progressToken":"","progress":0}`,
	proto.MethodFlowCancel:          `{"requestId":0,"reason":"` + screen.CancelReason + `"}`,
	proto.MethodInteractionStart:    `{"toolName":"","initialParams":{}}`,
	proto.MethodInteractionRespond:  `{"sessionId":"","response":{"value":""}}`,
	proto.MethodInteractionCancel:   `{"sessionId":"","reason":"` + screen.CancelReason + `"}`,
	proto.MethodInteractionGetState: `{"sessionId":""}`,
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
