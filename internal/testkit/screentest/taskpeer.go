package screentest

import (
	"context"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TaskPeer is a scripted 2025-11-25 server that declares v1 task
// execution of tools/call and answers every request after initialize
// with what its script says: a result's JSON, an error, or nothing (the
// request stays unanswered). Every message the client sends is kept, and
// captured in the sink when there is one.
type TaskPeer struct {
	wire
	script func(m *jsonrpc.Message) (result string, rpcErr *jsonrpc.Error, answer bool)
}

var _ client.Transport = (*TaskPeer)(nil)

// Send records m and answers a request as the script says.
func (p *TaskPeer) Send(_ context.Context, m *jsonrpc.Message) error {
	deliver, err := p.record(m)
	if err != nil || m.Kind() != jsonrpc.KindRequest {
		return err
	}
	res, rpcErr, answer := `{"protocolVersion":"`+mcp.LatestLegacy+`","capabilities":{"tools":{},`+
		`"tasks":{"cancel":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"tasker","version":"1"}}`, (*jsonrpc.Error)(nil), true
	if m.Method != mcp.MethodInitialize {
		res, rpcErr, answer = p.script(m)
	}
	if !answer {
		return nil
	}
	reply(deliver, m.ID, res, rpcErr)
	return nil
}

// ConnectTaskPeer connects a session to a new TaskPeer that answers with
// script and captures in sink (nil: nowhere); the session is closed at
// the end of the test.
func ConnectTaskPeer(t testing.TB, sink capture.Sink, opts client.Options,
	script func(m *jsonrpc.Message) (result string, rpcErr *jsonrpc.Error, answer bool)) (*TaskPeer, *client.Session) {
	t.Helper()
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = mcp.LatestLegacy
	}
	p := &TaskPeer{wire: wire{sink: sink, done: make(chan struct{})}, script: script}
	return p, connectSession(t, p, opts, "the task server")
}
