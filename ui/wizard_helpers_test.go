package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/flowtest"
	"github.com/mcpscope/mcpscope/proto"
)

// fakeSessionID is the sessionId the scripted server hands out.
const fakeSessionID = "session_abc123"

// fakeExpiry is when the scripted server's session expires: 4m30s after
// t0, the wizards' clock in these tests.
var fakeExpiry = t0.Add(4*time.Minute + 30*time.Second)

// wizardPeer is a transport with a scripted seed-002 server behind it. It
// declares interactive sessions in its initialize result when interactive
// is set (and answers `capabilities` with -32601 otherwise), lists one
// tool, starts sessions of it with a text prompt, and hands
// interaction.respond to onRespond (no answer while it returns nil).
// Every message the client sends is kept and captured in the sink.
type wizardPeer struct {
	sink        capture.Sink
	interactive bool

	mu        sync.Mutex
	sent      []*proto.Message
	deliver   func(*proto.Message)
	onRespond func(m *proto.Message) *proto.Message
	onState   func(m *proto.Message) *proto.Message
	holdStart bool // leave interaction.start unanswered
	capsCode  int  // the error code of `capabilities` (default -32601)
	nextID    int

	done chan struct{}
	once sync.Once
}

var _ client.Transport = (*wizardPeer)(nil)

// Start keeps deliver.
func (p *wizardPeer) Start(_ context.Context, deliver func(*proto.Message)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.deliver = deliver
	return nil
}

// Send records and captures m, and answers a request.
func (p *wizardPeer) Send(_ context.Context, m *proto.Message) error {
	raw, err := m.EncodeJSON()
	if err != nil {
		return err
	}
	p.sink.Append(&capture.Frame{Time: t0, Dir: capture.Out, Conn: "fake", Chan: capture.Channel{Kind: capture.Control},
		Raw: raw, Size: len(raw), Enc: proto.EncJSON, Msg: m})
	p.mu.Lock()
	p.sent = append(p.sent, m)
	deliver := p.deliver
	var answer *proto.Message
	if m.Kind() == proto.KindRequest {
		answer = p.answerLocked(m)
	}
	p.mu.Unlock()
	if answer != nil {
		go deliver(answer)
	}
	return nil
}

// answerLocked is the scripted server's answer to a request; nil for none.
func (p *wizardPeer) answerLocked(m *proto.Message) *proto.Message {
	id := *m.ID
	ok := func(v any) *proto.Message {
		r, err := proto.NewResult(id, v)
		if err != nil {
			return proto.NewErrorResponse(id, proto.CodeInternalError, err.Error(), nil)
		}
		return r
	}
	switch m.Method {
	case proto.MethodInitialize:
		caps := map[string]any{"tools": map[string]any{}}
		if p.interactive {
			caps["interactive"] = map[string]any{"version": "0.1.0", "features": map[string]bool{"statefulSessions": true}}
		}
		return ok(map[string]any{"protocolVersion": proto.LatestLegacy, "capabilities": caps,
			"serverInfo": map[string]any{"name": "scripted", "version": "1"}})
	case proto.MethodToolsList:
		return ok(map[string]any{"tools": []any{map[string]any{"name": "greet", "description": "Greets someone",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]string{"type": "string"}}}}}})
	case proto.MethodCapabilities:
		code := p.capsCode
		if code == 0 {
			code = proto.CodeMethodNotFound
		}
		return proto.NewErrorResponse(id, code, "capabilities are not available", nil)
	case proto.MethodInteractionStart:
		if p.holdStart {
			return nil
		}
		return ok(proto.InteractionStartResult{SessionID: fakeSessionID, State: proto.InteractionIdle, ExpiresAt: fakeExpiry.UnixMilli(),
			InitialPrompt: &proto.InteractionPrompt{Type: proto.PromptText, Message: "Your name?", Validation: &proto.PromptValidation{Required: true}},
			Progress:      &proto.InteractionProgress{Current: 1, Total: 2, Message: "Step 1 of 2"}})
	case proto.MethodInteractionRespond:
		if p.onRespond != nil {
			return p.onRespond(m)
		}
		return nil
	case proto.MethodInteractionCancel:
		return ok(proto.InteractionCancelResult{Cancelled: true})
	case proto.MethodInteractionGetState:
		if p.onState != nil {
			return p.onState(m)
		}
	}
	return proto.NewErrorResponse(id, proto.CodeMethodNotFound, "Method not found", nil)
}

// serverRequest sends the client a request of the scripted server.
func (p *wizardPeer) serverRequest(t *testing.T, method string, params any) {
	t.Helper()
	p.mu.Lock()
	p.nextID++
	id := proto.StringID(fmt.Sprintf("srv-%d", p.nextID))
	deliver := p.deliver
	p.mu.Unlock()
	m, err := proto.NewRequest(id, method, params)
	if err != nil {
		t.Fatal(err)
	}
	deliver(m)
}

// Close ends the connection.
func (p *wizardPeer) Close() error {
	p.once.Do(func() { close(p.done) })
	return nil
}

// Done is closed by Close.
func (p *wizardPeer) Done() <-chan struct{} { return p.done }

// Err is nil: the connection only ends by Close.
func (p *wizardPeer) Err() error { return nil }

// setRespond sets how interaction.respond is answered.
func (p *wizardPeer) setRespond(fn func(m *proto.Message) *proto.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onRespond = fn
}

// setState sets how interaction.getState is answered.
func (p *wizardPeer) setState(fn func(m *proto.Message) *proto.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onState = fn
}

// requests returns the requests with method the client sent.
func (p *wizardPeer) requests(method string) []*proto.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*proto.Message
	for _, m := range p.sent {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// responseTo returns the client's answer to the server's request id.
func (p *wizardPeer) responseTo(id string) *proto.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.sent {
		if m.Method == "" && m.ID != nil && m.ID.Key() == proto.StringID(id).Key() {
			return m
		}
	}
	return nil
}

// scriptedModel connects a model at 100×30 to a wizardPeer; the runner
// drives it.
func scriptedModel(t *testing.T, interactive bool) (*Model, *cmdRunner, *wizardPeer) {
	t.Helper()
	m := newTestModel(t, capture.NewStore(capture.Config{}), 100, 30)
	p := &wizardPeer{sink: m.cfg.Store, interactive: interactive, done: make(chan struct{})}
	s := client.New(p, client.Options{ProtocolVersion: proto.LatestLegacy})
	if err := s.Connect(flowtest.Context(t)); err != nil {
		t.Fatalf("connecting to the scripted server: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	m.conn = connection{link: Link{Transport: p, Session: s}, gen: 1, dialect: proto.DialectMCP, ready: true}
	return m, newRunner(t, m), p
}

// openToolWizard opens the explorer, waits for its lists and the
// discovery, selects tool and presses enter: it returns the wizard once
// it shows its first prompt. The wizards' clock is fixed at t0.
func openToolWizard(t *testing.T, r *cmdRunner, tool string) (*explorer, *wizard) {
	t.Helper()
	x := openExplorerLoaded(t, r)
	r.until("the discovery of interactive sessions", func() bool { return r.m.interactive.state == discoverKnown })
	r.press("/")
	r.typeText(tool)
	r.press("enter", "enter")
	if x.wiz == nil {
		t.Fatalf("enter on %s opened no wizard (mode %d):\n%s", tool, x.mode, r.screenText())
	}
	wiz := x.wiz
	wiz.clock = func() time.Time { return t0 }
	r.until("the first prompt", func() bool { return wiz.phase == wizAnswering || wiz.phase == wizEnded })
	return x, wiz
}

// answerPrompt waits until the wizard shows a prompt whose message holds
// text.
func waitPrompt(t *testing.T, r *cmdRunner, wiz *wizard, text string) {
	t.Helper()
	r.until("the prompt "+text, func() bool {
		return wiz.phase == wizAnswering && wiz.widget != nil && strings.Contains(wiz.widget.Prompt().Message, text)
	})
}

// respondValues returns the response values of the interaction.respond
// requests in the captured traffic, as JSON text.
func respondValues(t *testing.T, st *capture.Store) []string {
	t.Helper()
	var out []string
	for _, raw := range sentRequests(st, proto.MethodInteractionRespond) {
		var p proto.InteractionRespondParams
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("interaction.respond params %s: %v", raw, err)
		}
		out = append(out, string(p.Response.Value))
	}
	return out
}

// futureDate is a date a year from now: one book_trip accepts.
func futureDate() string { return time.Now().UTC().AddDate(1, 0, 0).Format(time.DateOnly) }
