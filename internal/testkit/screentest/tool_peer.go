package screentest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ToolPeerTools are the tools a ToolPeer lists: read_file answers with
// isError, weather declares an outputSchema its structuredContent fails,
// forecast declares one and sends no structuredContent, and echo answers
// as a tool should.
const ToolPeerTools = `[
	{"name":"read_file","inputSchema":{"type":"object"}},
	{"name":"weather","inputSchema":{"type":"object"},
	 "outputSchema":{"type":"object","required":["temp"],"properties":{"temp":{"type":"number"}}}},
	{"name":"forecast","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}},
	{"name":"echo","inputSchema":{"type":"object"}}]`

// ToolPeerResults are the tools/call results of the ToolPeer's tools.
var ToolPeerResults = map[string]string{
	"read_file": `{"content":[{"type":"text","text":"ENOENT: no such file"}],"isError":true}`,
	"weather":   `{"content":[{"type":"text","text":"warm"}],"structuredContent":{"temp":"warm"}}`,
	"forecast":  `{"content":[{"type":"text","text":"sunny"}]}`,
	"echo":      `{"content":[{"type":"text","text":"hello"}]}`,
}

// ToolPeer is a transport with a scripted 2025-11-25 server whose tools
// answer tools/call in each way a result can be a failure
// (client.CheckToolResult). Every message the client sends is kept and
// captured in the sink.
type ToolPeer struct{ wire }

var _ client.Transport = (*ToolPeer)(nil)

// Send records and captures m, and answers a request.
func (p *ToolPeer) Send(_ context.Context, m *jsonrpc.Message) error {
	deliver, err := p.record(m)
	if err != nil {
		return err
	}
	if m.Kind() == jsonrpc.KindRequest {
		go deliver(toolPeerAnswer(m))
	}
	return nil
}

// toolPeerAnswer is the scripted server's answer to a request.
func toolPeerAnswer(m *jsonrpc.Message) *jsonrpc.Message {
	id := *m.ID
	var res json.RawMessage
	switch m.Method {
	case mcp.MethodInitialize:
		res = json.RawMessage(`{"protocolVersion":"` + mcp.LatestLegacy + `","capabilities":{"tools":{}},"serverInfo":{"name":"tools","version":"1"}}`)
	case mcp.MethodToolsList:
		res = json.RawMessage(`{"tools":` + ToolPeerTools + `}`)
	case mcp.MethodToolsCall:
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(m.Params, &p)
		if r, ok := ToolPeerResults[p.Name]; ok {
			res = json.RawMessage(r)
		}
	}
	if res == nil {
		return jsonrpc.NewErrorResponse(id, mcp.CodeMethodNotFound, "Method not found", nil)
	}
	return &jsonrpc.Message{JSONRPC: "2.0", ID: &id, Result: res}
}

// ConnectToolPeer connects a session to a new ToolPeer that captures in
// sink; the session is closed at the end of the test.
func ConnectToolPeer(t testing.TB, sink capture.Sink) (*ToolPeer, *client.Session) {
	t.Helper()
	p := &ToolPeer{wire: wire{sink: sink, done: make(chan struct{})}}
	return p, connectSession(t, p, client.Options{ProtocolVersion: mcp.LatestLegacy}, "the tool server")
}
