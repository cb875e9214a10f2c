package mcp

// SEP-2577 deprecates the roots, sampling and logging features as of
// 2026-07-28; they keep working through the deprecation window (at least
// twelve months). HTTP+SSE, the 2024-11-05 transport, was replaced by
// Streamable HTTP in 2025-03-26.
const (
	// DeprecatedSince is the first version in which roots, sampling and
	// logging are deprecated.
	DeprecatedSince = ProtocolVersion20260728
	// SEP2577 is the note every deprecated feature's label points to.
	SEP2577 = "The roots, sampling, and logging features are deprecated as of protocol version 2026-07-28 by SEP-2577 " +
		"(https://modelcontextprotocol.io/seps/2577-deprecate-roots-sampling-and-logging). " +
		"They keep working during the deprecation window (at least twelve months)."
	// SSEDeprecation says why the legacy HTTP+SSE transport is labelled.
	SSEDeprecation = "the HTTP+SSE transport (2024-11-05) is deprecated: Streamable HTTP replaced it in 2025-03-26"
	// TransportHTTPSSE is how a link names the legacy HTTP+SSE transport.
	TransportHTTPSSE = "HTTP+SSE"
)

// deprecatedMethods name the feature each message of a deprecated feature
// belongs to, with what the spec advises instead.
var deprecatedMethods = map[string]struct{ feature, instead string }{
	MethodRootsList:              {"roots", "New code should pass paths via tool parameters, resource URIs, or configuration instead."},
	MethodNotifyRootsListChanged: {"roots", "New code should pass paths via tool parameters, resource URIs, or configuration instead."},
	MethodSamplingCreateMessage:  {"sampling", "Servers that need LLM completions should call LLM provider APIs directly."},
	MethodLoggingSetLevel:        {"logging", "Servers should migrate to stderr logging (for STDIO transports) or OpenTelemetry."},
	MethodNotifyMessage:          {"logging", "Servers should migrate to stderr logging (for STDIO transports) or OpenTelemetry."},
}

// DeprecatedFeature names the deprecated feature (roots, sampling,
// logging) a message of method belongs to in a session of version, and
// what to use instead; ok is false when the method is not deprecated
// there (any version before 2026-07-28, or another method).
func DeprecatedFeature(version, method string) (feature, instead string, ok bool) {
	d, found := deprecatedMethods[method]
	if !found || !DeprecatesFeatures(version) {
		return "", "", false
	}
	return d.feature, d.instead, true
}

// DeprecatesFeatures says whether version (a dated protocol version)
// deprecates roots, sampling and logging: 2026-07-28 and later.
func DeprecatesFeatures(version string) bool {
	return len(version) == len(DeprecatedSince) && version >= DeprecatedSince
}

// DeprecatedCapabilities are the capabilities, server's or client's,
// whose feature SEP-2577 deprecates.
var DeprecatedCapabilities = []string{"logging", "roots", "sampling"}
