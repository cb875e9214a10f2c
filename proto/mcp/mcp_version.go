package mcp

// MCP protocol revisions mcpscope knows. The legacy era (2024-11-05 through
// 2025-11-25) opens with the initialize handshake; the modern era
// (2026-07-28) is stateless: the client probes with server/discover and
// every request carries its version, client info and capabilities in _meta.
const (
	ProtocolVersion20241105 = "2024-11-05"
	ProtocolVersion20250326 = "2025-03-26"
	ProtocolVersion20250618 = "2025-06-18"
	ProtocolVersion20251125 = "2025-11-25"
	ProtocolVersion20260728 = "2026-07-28"

	// LatestLegacy is the newest revision negotiated with initialize.
	LatestLegacy = ProtocolVersion20251125
	// Modern is the revision of the stateless era (server/discover, MRTR).
	Modern = ProtocolVersion20260728
)

// LegacyVersions lists the initialize-era revisions, newest first.
var LegacyVersions = []string{
	ProtocolVersion20251125,
	ProtocolVersion20250618,
	ProtocolVersion20250326,
	ProtocolVersion20241105,
}

// KnownVersion reports whether v is a protocol revision mcpscope speaks.
func KnownVersion(v string) bool {
	return v == Modern || IsLegacyVersion(v)
}

// IsLegacyVersion reports whether v is a known initialize-era revision.
func IsLegacyVersion(v string) bool {
	for _, l := range LegacyVersions {
		if v == l {
			return true
		}
	}
	return false
}

// IsModernVersion reports whether v is a known stateless-era revision.
func IsModernVersion(v string) bool { return v == Modern }

// Keys of the per-request _meta object. The io.modelcontextprotocol/ keys
// carry, in the modern era, what the initialize handshake carried before.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
	// MetaProgressToken is the _meta key a request uses to ask for progress.
	MetaProgressToken = "progressToken"
)

// MCP method names, client to server.
const (
	MethodInitialize             = "initialize"
	MethodDiscover               = "server/discover"
	MethodPing                   = "ping"
	MethodToolsList              = "tools/list"
	MethodToolsCall              = "tools/call"
	MethodResourcesList          = "resources/list"
	MethodResourceTemplatesList  = "resources/templates/list"
	MethodResourcesRead          = "resources/read"
	MethodResourcesSubscribe     = "resources/subscribe"
	MethodResourcesUnsubscribe   = "resources/unsubscribe"
	MethodPromptsList            = "prompts/list"
	MethodPromptsGet             = "prompts/get"
	MethodCompletionComplete     = "completion/complete"
	MethodLoggingSetLevel        = "logging/setLevel"
	MethodSubscriptionsListen    = "subscriptions/listen"
	MethodElicitationCreate      = "elicitation/create"
	MethodSamplingCreateMessage  = "sampling/createMessage"
	MethodRootsList              = "roots/list"
	MethodNotifyInitialized      = "notifications/initialized"
	MethodNotifyCancelled        = "notifications/cancelled"
	MethodNotifyProgress         = "notifications/progress"
	MethodNotifyMessage          = "notifications/message"
	MethodNotifyRootsListChanged = "notifications/roots/list_changed"
	MethodNotifyToolsListChanged = "notifications/tools/list_changed"
	MethodNotifyPromptsChanged   = "notifications/prompts/list_changed"
	MethodNotifyResourcesChanged = "notifications/resources/list_changed"
	MethodNotifyResourceUpdated  = "notifications/resources/updated"
	MethodNotifyElicitationDone  = "notifications/elicitation/complete"
	MethodNotifySubscriptionsAck = "notifications/subscriptions/acknowledged"
)
