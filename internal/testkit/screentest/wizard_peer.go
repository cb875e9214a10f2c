package screentest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// FakeSessionID is the sessionId the scripted server hands out.
const FakeSessionID = "session_abc123"

// FakeExpiry is when the scripted server's session expires: 4m30s after
// T0, the wizards' clock in the tests.
var FakeExpiry = T0.Add(4*time.Minute + 30*time.Second)

// WizardPeer is a transport with a scripted seed-002 server behind it. It
// declares interactive sessions in its initialize result when interactive
// is set (and answers `capabilities` with -32601 otherwise), lists one
// tool, starts sessions of it with a text prompt, and hands
// interaction.respond to onRespond (no answer while it returns nil).
// Every message the client sends is kept and captured in the sink.
type WizardPeer struct {
	wire
	interactive bool

	onRespond func(m *jsonrpc.Message) *jsonrpc.Message
	onState   func(m *jsonrpc.Message) *jsonrpc.Message
	holdStart bool // leave interaction.start unanswered
	capsCode  int  // the error code of `capabilities` (default -32601)
	nextID    int
}

var _ client.Transport = (*WizardPeer)(nil)

// Send records and captures m, and answers a request.
func (p *WizardPeer) Send(_ context.Context, m *jsonrpc.Message) error {
	if err := p.capture(m); err != nil {
		return err
	}
	p.mu.Lock()
	p.sent = append(p.sent, m)
	deliver := p.deliver
	var answer *jsonrpc.Message
	if m.Kind() == jsonrpc.KindRequest {
		answer = p.answerLocked(m)
	}
	p.mu.Unlock()
	if answer != nil {
		go deliver(answer)
	}
	return nil
}

// answerLocked is the scripted server's answer to a request; nil for none.
func (p *WizardPeer) answerLocked(m *jsonrpc.Message) *jsonrpc.Message {
	id := *m.ID
	ok := func(v any) *jsonrpc.Message {
		r, err := jsonrpc.NewResult(id, v)
		if err != nil {
			return jsonrpc.NewErrorResponse(id, mcp.CodeInternalError, err.Error(), nil)
		}
		return r
	}
	switch m.Method {
	case mcp.MethodInitialize:
		caps := map[string]any{"tools": map[string]any{}}
		if p.interactive {
			caps["interactive"] = map[string]any{"version": "0.1.0", "features": map[string]bool{"statefulSessions": true}}
		}
		return ok(map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": caps,
			"serverInfo": map[string]any{"name": "scripted", "version": "1"}})
	case mcp.MethodToolsList:
		return ok(map[string]any{"tools": []any{map[string]any{"name": "greet", "description": "Greets someone",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]string{"type": "string"}}}}}})
	case mcp.MethodCapabilities:
		code := p.capsCode
		if code == 0 {
			code = mcp.CodeMethodNotFound
		}
		return jsonrpc.NewErrorResponse(id, code, "capabilities are not available", nil)
	case mcp.MethodInteractionStart:
		if p.holdStart {
			return nil
		}
		return ok(mcp.InteractionStartResult{SessionID: FakeSessionID, State: mcp.InteractionIdle, ExpiresAt: FakeExpiry.UnixMilli(),
			InitialPrompt: &mcp.InteractionPrompt{Type: mcp.PromptText, Message: "Your name?", Validation: &mcp.PromptValidation{Required: true}},
			Progress:      &mcp.InteractionProgress{Current: 1, Total: 2, Message: "Step 1 of 2"}})
	case mcp.MethodInteractionRespond:
		if p.onRespond != nil {
			return p.onRespond(m)
		}
		return nil
	case mcp.MethodInteractionCancel:
		return ok(mcp.InteractionCancelResult{Cancelled: true})
	case mcp.MethodInteractionGetState:
		if p.onState != nil {
			return p.onState(m)
		}
	}
	return jsonrpc.NewErrorResponse(id, mcp.CodeMethodNotFound, "Method not found", nil)
}

// ServerRequest sends the client a request of the scripted server.
func (p *WizardPeer) ServerRequest(t testing.TB, method string, params any) {
	t.Helper()
	p.mu.Lock()
	p.nextID++
	id := jsonrpc.StringID(fmt.Sprintf("srv-%d", p.nextID))
	deliver := p.deliver
	p.mu.Unlock()
	m, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		t.Fatal(err)
	}
	deliver(m)
}

// SetRespond sets how interaction.respond is answered.
func (p *WizardPeer) SetRespond(fn func(m *jsonrpc.Message) *jsonrpc.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onRespond = fn
}

// SetState sets how interaction.getState is answered.
func (p *WizardPeer) SetState(fn func(m *jsonrpc.Message) *jsonrpc.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onState = fn
}

// ResponseTo returns the client's answer to the server's request id.
func (p *WizardPeer) ResponseTo(id string) *jsonrpc.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.sent {
		if m.Method == "" && m.ID != nil && m.ID.Key() == jsonrpc.StringID(id).Key() {
			return m
		}
	}
	return nil
}

// SetHoldStart says whether interaction.start stays unanswered.
func (p *WizardPeer) SetHoldStart(hold bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holdStart = hold
}

// SetCapsCode sets the error code `capabilities` answers with.
func (p *WizardPeer) SetCapsCode(code int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.capsCode = code
}

// ConnectWizardPeer connects a session to a new WizardPeer that captures
// in sink, declaring interactive sessions when interactive is set; the
// session is closed at the end of the test.
func ConnectWizardPeer(t testing.TB, sink capture.Sink, interactive bool) (*WizardPeer, *client.Session) {
	t.Helper()
	p := &WizardPeer{wire: wire{sink: sink, done: make(chan struct{})}, interactive: interactive}
	return p, connectSession(t, p, client.Options{ProtocolVersion: mcp.LatestLegacy}, "the scripted server")
}
