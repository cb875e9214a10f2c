package screentest

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// CompletionPeer is a scripted 2025-11-25 server with one prompt,
// "pick" (arguments team and member), that answers completion/complete
// with what its answer function says, or not at all while held. Every
// message the client sends is kept and captured in the sink.
type CompletionPeer struct {
	wire
	advertise bool
	answer    func(mcp.CompleteParams) (result string, rpcErr *jsonrpc.Error)
	hold      atomic.Bool
}

var _ client.Transport = (*CompletionPeer)(nil)

// SetHold says whether completion/complete requests stay unanswered.
func (p *CompletionPeer) SetHold(hold bool) { p.hold.Store(hold) }

// Send records and captures m, and answers a request.
func (p *CompletionPeer) Send(_ context.Context, m *jsonrpc.Message) error {
	deliver, err := p.record(m)
	if err != nil || m.Kind() != jsonrpc.KindRequest {
		return err
	}
	var res string
	var rpcErr *jsonrpc.Error
	switch m.Method {
	case mcp.MethodInitialize:
		caps := `{"prompts":{}}`
		if p.advertise {
			caps = `{"prompts":{},"completions":{}}`
		}
		res = `{"protocolVersion":"` + mcp.LatestLegacy + `","capabilities":` + caps + `,"serverInfo":{"name":"completer","version":"1"}}`
	case mcp.MethodPromptsList:
		res = `{"prompts":[{"name":"pick","arguments":[{"name":"team","required":true},{"name":"member"}]}]}`
	case mcp.MethodCompletionComplete:
		if p.hold.Load() {
			return nil
		}
		var params mcp.CompleteParams
		_ = json.Unmarshal(m.Params, &params)
		res, rpcErr = p.answer(params)
	default:
		rpcErr = &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "Method not found"}
	}
	reply(deliver, m.ID, res, rpcErr)
	return nil
}

// ConnectCompletionPeer connects a session to a new CompletionPeer that
// captures in sink, advertises completions when advertise is set, and
// answers completion/complete with answer (a result's JSON, or an error);
// the session is closed at the end of the test.
func ConnectCompletionPeer(t testing.TB, sink capture.Sink, advertise bool,
	answer func(mcp.CompleteParams) (string, *jsonrpc.Error)) (*CompletionPeer, *client.Session) {
	t.Helper()
	p := &CompletionPeer{wire: wire{sink: sink, done: make(chan struct{})}, advertise: advertise, answer: answer}
	return p, connectSession(t, p, client.Options{ProtocolVersion: mcp.LatestLegacy}, "the completion server")
}
