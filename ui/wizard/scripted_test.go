package wizard

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// The wizard against a scripted seed-002 server: what the demo never
// does on purpose (an answer held in flight, illegal transitions, session
// errors, timeout warnings).

// accept answers interaction.respond with accepted:true.
func accept(m *jsonrpc.Message) *jsonrpc.Message {
	r, _ := jsonrpc.NewResult(*m.ID, mcp.InteractionRespondResult{Accepted: true, Validation: &mcp.InteractionValidation{Valid: true}})
	return r
}

// rpcErrorAnswer answers a request with a JSON-RPC error.
func rpcErrorAnswer(code int, msg string) func(m *jsonrpc.Message) *jsonrpc.Message {
	return func(m *jsonrpc.Message) *jsonrpc.Message {
		return jsonrpc.NewErrorResponse(*m.ID, code, msg, json.RawMessage(`{"sessionId":"`+screentest.FakeSessionID+`"}`))
	}
}

// TestWizardCancelAnswerInFlight: ctrl+x cancels the interaction.respond
// in flight (notifications/cancelled on MCP, naming its id); the prompt is
// answered again and the session completes.
func TestWizardCancelAnswerInFlight(t *testing.T) {
	m, r, p := scriptedModel(t, true)
	wiz := openToolWizard(t, r, m, "greet")
	r.Press("ctrl+x")
	if !strings.Contains(r.ScreenText(), "no answer is in flight: nothing to cancel") || len(p.Sent(mcp.MethodNotifyCancelled)) != 0 {
		t.Errorf("ctrl+x with nothing in flight:\n%s", r.ScreenText())
	}
	r.TypeText("Ada")
	r.Press("enter")
	screentest.WaitFor(t, "the answer on the wire", func() bool { return len(p.Sent(mcp.MethodInteractionRespond)) == 1 })
	if wiz.phase != wizSending {
		t.Fatalf("phase %d while the answer is in flight", wiz.phase)
	}
	r.Press("ctrl+x")
	r.Until("the prompt again", func() bool { return wiz.phase == wizAnswering })
	if s := r.ScreenText(); !strings.Contains(s, "the answer was cancelled in flight") || !strings.Contains(s, "> Ada") {
		t.Errorf("after ctrl+x:\n%s", s)
	}
	// The wizard is back at its prompt once the call returned; the
	// notification may still be on its way out.
	screentest.WaitFor(t, "notifications/cancelled on the wire", func() bool { return len(p.Sent(mcp.MethodNotifyCancelled)) >= 1 })
	cancels := p.Sent(mcp.MethodNotifyCancelled)
	respondID := p.Sent(mcp.MethodInteractionRespond)[0].ID
	var c mcp.CancelledNotificationParams
	if len(cancels) != 1 || json.Unmarshal(cancels[0].Params, &c) != nil || c.RequestID.Key() != respondID.Key() {
		t.Fatalf("notifications/cancelled %v for interaction.respond id %s", cancels, respondID)
	}
	if c.Reason != screen.CancelReason {
		t.Errorf("cancellation reason %q, want the user's %q", c.Reason, screen.CancelReason)
	}
	if wiz.sessionState() != mcp.InteractionWaitingUser {
		t.Errorf("state after the cancelled answer %s", wiz.sessionState())
	}

	p.SetRespond(accept)
	r.Press("enter")
	r.Until("the answer accepted", func() bool { return wiz.phase == wizWaiting })
	if !strings.Contains(r.ScreenText(), "the answer was accepted; waiting for the server's next prompt") {
		t.Errorf("waiting:\n%s", r.ScreenText())
	}
	p.ServerRequest(t, mcp.MethodInteractionComplete, mcp.InteractionCompleteParams{SessionID: screentest.FakeSessionID,
		Result: json.RawMessage(`{"success":false,"data":{"greeted":"Ada"}}`), Summary: "Nobody was greeted"})
	r.Until("the completion", func() bool { return wiz.phase == wizEnded })
	if s := r.ScreenText(); !strings.Contains(s, "✗ completed · success: false") || !strings.Contains(s, "Nobody was greeted") || !strings.Contains(s, `"greeted": "Ada"`) {
		t.Errorf("completion:\n%s", s)
	}
	// The engine sends its acknowledgement from its own goroutine: the
	// completion may be on screen before the answer is on the wire.
	screentest.WaitFor(t, "the client's answer to interaction.complete", func() bool { return p.ResponseTo("srv-1") != nil })
	if a := p.ResponseTo("srv-1"); a == nil || !strings.Contains(string(a.Result), `"success":true`) {
		t.Errorf("the client's answer to interaction.complete: %+v", a)
	}
}

// TestWizardIllegalTransition: interaction.complete while the session
// waits for the user is refused with -32003 and shown by name; the prompt
// stays.
func TestWizardIllegalTransition(t *testing.T) {
	m, r, p := scriptedModel(t, true)
	wiz := openToolWizard(t, r, m, "greet")
	p.ServerRequest(t, mcp.MethodInteractionComplete, mcp.InteractionCompleteParams{SessionID: screentest.FakeSessionID, Summary: "too early"})
	r.Until("the illegal transition", func() bool { return len(wiz.notes) > 0 })
	if s := r.ScreenText(); !strings.Contains(s, "illegal transition waiting_user → completed refused with error -32003 INVALID_STATE_TRANSITION") {
		t.Errorf("screen:\n%s", s)
	}
	if wiz.phase != wizAnswering || wiz.sessionState() != mcp.InteractionWaitingUser {
		t.Errorf("after the illegal transition: phase %d state %s", wiz.phase, wiz.sessionState())
	}
	screentest.WaitFor(t, "the client's answer", func() bool { return p.ResponseTo("srv-1") != nil })
	if a := p.ResponseTo("srv-1"); a.Error == nil || a.Error.Code != mcp.CodeInvalidStateTransition {
		t.Errorf("the client answered %+v", a)
	}
}

// TestWizardErrorsByName shows the errors of interaction.* by their seed
// 002 names: a refused answer (-32004) is answered again, an expired
// session (-32002) ends the wizard, an unknown session (-32001) fills the
// state view.
func TestWizardErrorsByName(t *testing.T) {
	m, r, p := scriptedModel(t, true)
	wiz := openToolWizard(t, r, m, "greet")
	p.SetRespond(rpcErrorAnswer(mcp.CodeValidationFailed, "Input validation failed"))
	r.TypeText("Ada")
	r.Press("enter")
	r.Until("the error", func() bool { return len(wiz.notes) > 0 })
	if s := r.ScreenText(); !strings.Contains(s, "interaction.respond failed: error -32004 VALIDATION_FAILED: Input validation failed") || wiz.phase != wizAnswering {
		t.Errorf("phase %d:\n%s", wiz.phase, s)
	}

	p.SetRespond(rpcErrorAnswer(mcp.CodeSessionExpired, "Session expired"))
	r.Press("enter")
	r.Until("the end", func() bool { return wiz.phase == wizEnded })
	s := r.ScreenText()
	for _, want := range []string{"· error", "the session ended in error", "error -32002 SESSION_EXPIRED", "Session expired", `"sessionId": "` + screentest.FakeSessionID + `"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the end lacks %q:\n%s", want, s)
		}
	}

	p.SetState(rpcErrorAnswer(mcp.CodeSessionNotFound, "Session not found: "+screentest.FakeSessionID))
	r.Press("ctrl+g")
	r.Until("the state view's answer", func() bool { return strings.Contains(r.ScreenText(), "interaction.getState failed") })
	if s := r.ScreenText(); !strings.Contains(s, "interaction.getState failed: error -32001 SESSION_NOT_FOUND: Session not found: "+screentest.FakeSessionID) {
		t.Errorf("state view:\n%s", s)
	}
}

// TestWizardTimeoutWarning shows a timeout warning (interaction.continue
// with a message and a new expiresAt) and the countdown to it.
func TestWizardTimeoutWarning(t *testing.T) {
	m, r, p := scriptedModel(t, true)
	wiz := openToolWizard(t, r, m, "greet")
	if s := r.ScreenText(); !strings.Contains(s, "expires in 4m30s") {
		t.Errorf("countdown:\n%s", s)
	}
	p.ServerRequest(t, mcp.MethodInteractionContinue, mcp.InteractionContinueParams{SessionID: screentest.FakeSessionID,
		Message: "session expires in 10 s", ExpiresAt: t0.Add(10 * time.Second).UnixMilli()})
	r.Until("the warning", func() bool { return wiz.message != "" })
	if s := r.ScreenText(); !strings.Contains(s, "⚠ session expires in 10 s") || !strings.Contains(s, "expires in 10s") || !strings.Contains(s, "Your name?") {
		t.Errorf("warning:\n%s", s)
	}
}

// TestWizardStartedAfterClose: a session whose interaction.start answers
// after its wizard was closed is cancelled.
func TestWizardStartedAfterClose(t *testing.T) {
	m, _, p := scriptedModel(t, true)
	it, err := m.host.Sess.StartInteraction(flowtest.Context(t), mcp.InteractionStartParams{ToolName: "greet"})
	if err != nil {
		t.Fatal(err)
	}
	closed := New(m.host, "greet")
	cmd := StartedMsg{w: closed, it: it}.Drop()
	if cmd == nil {
		t.Fatal("a session started for a closed wizard is kept")
	}
	cmd()
	if got := p.Sent(mcp.MethodInteractionCancel); len(got) != 1 || it.State() != mcp.InteractionCancelled {
		t.Errorf("%d interaction.cancel, state %s", len(got), it.State())
	}
}

// TestWizardEscWhileStarting: esc while interaction.start is in flight
// closes the wizard and tells the server the client stopped waiting.
func TestWizardEscWhileStarting(t *testing.T) {
	m, r, p := scriptedModel(t, true)
	p.SetHoldStart(true)
	wiz := New(m.host, "greet")
	wiz.SetSize(m.w, m.bodyH())
	m.overlay = wiz
	r.Run(wiz.Start())
	if wiz.phase != wizStarting || !strings.Contains(r.ScreenText(), "interaction.start sent, waiting for the session") {
		t.Fatalf("start of greet: phase %d\n%s", wiz.phase, r.ScreenText())
	}
	screentest.WaitFor(t, "the start on the wire", func() bool { return len(p.Sent(mcp.MethodInteractionStart)) == 1 })
	r.Press("esc")
	if m.overlay != nil {
		t.Fatal("esc while starting: the wizard is still open")
	}
	start := p.Sent(mcp.MethodInteractionStart)[0]
	screentest.WaitFor(t, "notifications/cancelled", func() bool { return len(p.Sent(mcp.MethodNotifyCancelled)) == 1 })
	var c mcp.CancelledNotificationParams
	if err := json.Unmarshal(p.Sent(mcp.MethodNotifyCancelled)[0].Params, &c); err != nil || c.RequestID.Key() != start.ID.Key() {
		t.Errorf("notifications/cancelled %+v for interaction.start id %s", c, start.ID)
	}
}
