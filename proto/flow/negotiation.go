package flow

// Negotiation is what an MCP-Flow initialize result settled: its
// result.transport, the encoding the server chose and how it limits the
// session.
type Negotiation struct {
	FlowTransport
	// Declared is false when the result carried no transport object (the
	// session then stays JSON).
	Declared bool `json:"-"`
}
