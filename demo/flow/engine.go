package flow

import (
	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Engine answers what the clients of a Server send, one EngineConn per
// MCP-Flow session. The demo core is the engine unless Config.Engine
// names another (a mock serving a recording, say).
type Engine interface {
	// NewConn starts serving one session whose messages go to out.
	NewConn(out demo.Outbound) EngineConn
}

// EngineConn is one session as an Engine serves it. The Server calls
// Initialize and Handle from one goroutine, in the order frames arrive.
type EngineConn interface {
	// Initialize answers the initialize request m: a result that carries
	// transport as its "transport" member, or an error answer. The
	// Server writes it in JSON, then switches to the negotiated encoding.
	Initialize(m *jsonrpc.Message, transport flow.FlowTransport) (any, *jsonrpc.Error)
	// Handle serves any other message from the client.
	Handle(m *jsonrpc.Message)
	// Close ends the session's work and waits for it.
	Close()
}

// demoEngine serves the demo core.
type demoEngine struct{ core *demo.Server }

// NewConn starts a demo connection.
func (e demoEngine) NewConn(out demo.Outbound) EngineConn {
	return demoConn{Conn: e.core.NewConn(out), core: e.core}
}

// demoConn is one session of the demo core.
type demoConn struct {
	*demo.Conn
	core *demo.Server
}

// initializeResult is the initialize result with the transport object.
type initializeResult struct {
	mcp.InitializeResult
	Transport flow.FlowTransport `json:"transport"`
}

// Initialize answers with the demo's initialize result and transport.
func (c demoConn) Initialize(m *jsonrpc.Message, transport flow.FlowTransport) (any, *jsonrpc.Error) {
	base, rerr := c.core.Initialize(m.Params)
	if rerr != nil {
		return nil, rerr
	}
	return initializeResult{InitializeResult: base, Transport: transport}, nil
}

// inFlight reports whether the demo is still running the tools/call id;
// another engine runs none the demo's misbehave modes look for.
func (s *session) inFlight(id jsonrpc.ID) bool {
	c, ok := s.conn.(demoConn)
	return ok && c.InFlight(id)
}
