package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/flowtest"
	"github.com/mcpscope/mcpscope/proto"

	"github.com/mcpscope/mcpscope/ui/screen"

	"github.com/mcpscope/mcpscope/internal/screentest"
)

// The wizard against a scripted seed-002 server: what the demo never
// does on purpose (an answer held in flight, illegal transitions, session
// errors, timeout warnings) and a server that is not interactive.

// accept answers interaction.respond with accepted:true.
func accept(m *proto.Message) *proto.Message {
	r, _ := proto.NewResult(*m.ID, proto.InteractionRespondResult{Accepted: true, Validation: &proto.InteractionValidation{Valid: true}})
	return r
}

// rpcErrorAnswer answers a request with a JSON-RPC error.
func rpcErrorAnswer(code int, msg string) func(m *proto.Message) *proto.Message {
	return func(m *proto.Message) *proto.Message {
		return proto.NewErrorResponse(*m.ID, code, msg, json.RawMessage(`{"sessionId":"`+fakeSessionID+`"}`))
	}
}

// TestWizardCancelAnswerInFlight: ctrl+x cancels the interaction.respond
// in flight (notifications/cancelled on MCP, naming its id); the prompt is
// answered again and the session completes.
func TestWizardCancelAnswerInFlight(t *testing.T) {
	_, r, p := scriptedModel(t, true)
	_, wiz := openToolWizard(t, r, "greet")
	r.press("ctrl+x")
	if !strings.Contains(r.screenText(), "no answer is in flight: nothing to cancel") || len(p.requests(proto.MethodNotifyCancelled)) != 0 {
		t.Errorf("ctrl+x with nothing in flight:\n%s", r.screenText())
	}
	r.typeText("Ada")
	r.press("enter")
	screentest.WaitFor(t, "the answer on the wire", func() bool { return len(p.requests(proto.MethodInteractionRespond)) == 1 })
	if wiz.phase != wizSending {
		t.Fatalf("phase %d while the answer is in flight", wiz.phase)
	}
	r.press("ctrl+x")
	r.until("the prompt again", func() bool { return wiz.phase == wizAnswering })
	if s := r.screenText(); !strings.Contains(s, "the answer was cancelled in flight") || !strings.Contains(s, "> Ada") {
		t.Errorf("after ctrl+x:\n%s", s)
	}
	cancels := p.requests(proto.MethodNotifyCancelled)
	respondID := p.requests(proto.MethodInteractionRespond)[0].ID
	var c proto.CancelledNotificationParams
	if len(cancels) != 1 || json.Unmarshal(cancels[0].Params, &c) != nil || c.RequestID.Key() != respondID.Key() {
		t.Fatalf("notifications/cancelled %v for interaction.respond id %s", cancels, respondID)
	}
	if c.Reason != screen.CancelReason {
		t.Errorf("cancellation reason %q, want the user's %q", c.Reason, screen.CancelReason)
	}
	if wiz.sessionState() != proto.InteractionWaitingUser {
		t.Errorf("state after the cancelled answer %s", wiz.sessionState())
	}

	p.setRespond(accept)
	r.press("enter")
	r.until("the answer accepted", func() bool { return wiz.phase == wizWaiting })
	if !strings.Contains(r.screenText(), "the answer was accepted; waiting for the server's next prompt") {
		t.Errorf("waiting:\n%s", r.screenText())
	}
	p.serverRequest(t, proto.MethodInteractionComplete, proto.InteractionCompleteParams{SessionID: fakeSessionID,
		Result: json.RawMessage(`{"success":false,"data":{"greeted":"Ada"}}`), Summary: "Nobody was greeted"})
	r.until("the completion", func() bool { return wiz.phase == wizEnded })
	if s := r.screenText(); !strings.Contains(s, "✗ completed · success: false") || !strings.Contains(s, "Nobody was greeted") || !strings.Contains(s, `"greeted": "Ada"`) {
		t.Errorf("completion:\n%s", s)
	}
	// The engine sends its acknowledgement from its own goroutine: the
	// completion may be on screen before the answer is on the wire.
	screentest.WaitFor(t, "the client's answer to interaction.complete", func() bool { return p.responseTo("srv-1") != nil })
	if a := p.responseTo("srv-1"); a == nil || !strings.Contains(string(a.Result), `"success":true`) {
		t.Errorf("the client's answer to interaction.complete: %+v", a)
	}
}

// TestWizardIllegalTransition: interaction.complete while the session
// waits for the user is refused with -32003 and shown by name; the prompt
// stays.
func TestWizardIllegalTransition(t *testing.T) {
	_, r, p := scriptedModel(t, true)
	_, wiz := openToolWizard(t, r, "greet")
	p.serverRequest(t, proto.MethodInteractionComplete, proto.InteractionCompleteParams{SessionID: fakeSessionID, Summary: "too early"})
	r.until("the illegal transition", func() bool { return len(wiz.notes) > 0 })
	if s := r.screenText(); !strings.Contains(s, "illegal transition waiting_user → completed refused with error -32003 INVALID_STATE_TRANSITION") {
		t.Errorf("screen:\n%s", s)
	}
	if wiz.phase != wizAnswering || wiz.sessionState() != proto.InteractionWaitingUser {
		t.Errorf("after the illegal transition: phase %d state %s", wiz.phase, wiz.sessionState())
	}
	screentest.WaitFor(t, "the client's answer", func() bool { return p.responseTo("srv-1") != nil })
	if a := p.responseTo("srv-1"); a.Error == nil || a.Error.Code != proto.CodeInvalidStateTransition {
		t.Errorf("the client answered %+v", a)
	}
}

// TestWizardErrorsByName shows the errors of interaction.* by their seed
// 002 names: a refused answer (-32004) is answered again, an expired
// session (-32002) ends the wizard, an unknown session (-32001) fills the
// state view.
func TestWizardErrorsByName(t *testing.T) {
	_, r, p := scriptedModel(t, true)
	_, wiz := openToolWizard(t, r, "greet")
	p.setRespond(rpcErrorAnswer(proto.CodeValidationFailed, "Input validation failed"))
	r.typeText("Ada")
	r.press("enter")
	r.until("the error", func() bool { return len(wiz.notes) > 0 })
	if s := r.screenText(); !strings.Contains(s, "interaction.respond failed: error -32004 VALIDATION_FAILED: Input validation failed") || wiz.phase != wizAnswering {
		t.Errorf("phase %d:\n%s", wiz.phase, s)
	}

	p.setRespond(rpcErrorAnswer(proto.CodeSessionExpired, "Session expired"))
	r.press("enter")
	r.until("the end", func() bool { return wiz.phase == wizEnded })
	s := r.screenText()
	for _, want := range []string{"· error", "the session ended in error", "error -32002 SESSION_EXPIRED", "Session expired", `"sessionId": "` + fakeSessionID + `"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the end lacks %q:\n%s", want, s)
		}
	}

	p.setState(rpcErrorAnswer(proto.CodeSessionNotFound, "Session not found: "+fakeSessionID))
	r.press("ctrl+g")
	r.until("the state view's answer", func() bool { return strings.Contains(r.screenText(), "interaction.getState failed") })
	if s := r.screenText(); !strings.Contains(s, "interaction.getState failed: error -32001 SESSION_NOT_FOUND: Session not found: "+fakeSessionID) {
		t.Errorf("state view:\n%s", s)
	}
}

// TestWizardTimeoutWarning shows a timeout warning (interaction.continue
// with a message and a new expiresAt) and the countdown to it.
func TestWizardTimeoutWarning(t *testing.T) {
	_, r, p := scriptedModel(t, true)
	_, wiz := openToolWizard(t, r, "greet")
	if s := r.screenText(); !strings.Contains(s, "expires in 4m30s") {
		t.Errorf("countdown:\n%s", s)
	}
	p.serverRequest(t, proto.MethodInteractionContinue, proto.InteractionContinueParams{SessionID: fakeSessionID,
		Message: "session expires in 10 s", ExpiresAt: t0.Add(10 * time.Second).UnixMilli()})
	r.until("the warning", func() bool { return wiz.message != "" })
	if s := r.screenText(); !strings.Contains(s, "⚠ session expires in 10 s") || !strings.Contains(s, "expires in 10s") || !strings.Contains(s, "Your name?") {
		t.Errorf("warning:\n%s", s)
	}
}

// TestWizardDegrade: a server that is not interactive (`capabilities` →
// -32601) keeps the explorer as it was: no wizard tags, enter opens the
// tools/call form, no interaction.start; the discovery is not asked again
// on the same connection.
func TestWizardDegrade(t *testing.T) {
	m, r, p := scriptedModel(t, false)
	x := openExplorerLoaded(t, r)
	r.until("the discovery", func() bool { return m.interactive.state == discoverKnown })
	if m.interactive.caps.Interactive || m.interactive.err != nil || len(p.requests(proto.MethodCapabilities)) != 1 {
		t.Fatalf("discovery %+v, %d capabilities requests", m.interactive, len(p.requests(proto.MethodCapabilities)))
	}
	s := r.screenText()
	if strings.Contains(s, "wizard") || strings.Contains(s, "interactive server") {
		t.Errorf("a server that is not interactive has wizards:\n%s", s)
	}
	r.press("enter")
	if x.mode != modeForm || !strings.Contains(r.screenText(), "tools/call greet") {
		t.Fatalf("enter on greet: mode %d\n%s", x.mode, r.screenText())
	}
	r.press("esc", "esc")
	r.press("e")
	r.until("the lists again", func() bool { return m.overlay.(*explorer).lists[tabTools].state == listLoaded })
	if n := len(p.requests(proto.MethodCapabilities)); n != 1 || len(p.requests(proto.MethodInteractionStart)) != 0 {
		t.Errorf("%d capabilities requests, %d starts", n, len(p.requests(proto.MethodInteractionStart)))
	}
}

// TestWizardEscWhileStarting: esc while interaction.start is in flight
// closes the wizard and tells the server the client stopped waiting.
func TestWizardEscWhileStarting(t *testing.T) {
	_, r, p := scriptedModel(t, true)
	p.mu.Lock()
	p.holdStart = true
	p.mu.Unlock()
	x := openExplorerLoaded(t, r)
	r.until("the discovery", func() bool { return r.m.interactive.state == discoverKnown })
	r.press("enter")
	if x.mode != modeWizard || x.wiz.phase != wizStarting || !strings.Contains(r.screenText(), "interaction.start sent, waiting for the session") {
		t.Fatalf("enter on greet: mode %d\n%s", x.mode, r.screenText())
	}
	screentest.WaitFor(t, "the start on the wire", func() bool { return len(p.requests(proto.MethodInteractionStart)) == 1 })
	r.press("esc")
	if x.mode != modeList || x.wiz != nil {
		t.Fatalf("esc while starting: mode %d", x.mode)
	}
	start := p.requests(proto.MethodInteractionStart)[0]
	screentest.WaitFor(t, "notifications/cancelled", func() bool { return len(p.requests(proto.MethodNotifyCancelled)) == 1 })
	var c proto.CancelledNotificationParams
	if err := json.Unmarshal(p.requests(proto.MethodNotifyCancelled)[0].Params, &c); err != nil || c.RequestID.Key() != start.ID.Key() {
		t.Errorf("notifications/cancelled %+v for interaction.start id %s", c, start.ID)
	}
}

// TestWizardDiscoveryError: a `capabilities` request that fails with
// anything but -32601 or -32007 is shown on the tools list, whose tools
// keep their form.
func TestWizardDiscoveryError(t *testing.T) {
	m, r, p := scriptedModel(t, false)
	p.mu.Lock()
	p.capsCode = proto.CodeInternalError
	p.mu.Unlock()
	x := openExplorerLoaded(t, r)
	r.until("the discovery", func() bool { return m.interactive.state == discoverKnown })
	if s := r.screenText(); !strings.Contains(s, "capabilities failed: error -32603 Internal error: capabilities") {
		t.Errorf("list head:\n%s", s)
	}
	r.press("enter")
	if x.mode != modeForm {
		t.Errorf("enter: mode %d", x.mode)
	}
}

// TestWizardStartedAfterClose: a session whose interaction.start answers
// after its wizard was closed is cancelled.
func TestWizardStartedAfterClose(t *testing.T) {
	m, r, p := scriptedModel(t, true)
	x := openExplorerLoaded(t, r)
	it, err := m.conn.link.Session.StartInteraction(flowtest.Context(t), proto.InteractionStartParams{ToolName: "greet"})
	if err != nil {
		t.Fatal(err)
	}
	closed := newWizard(driver{m}, "greet")
	cmd, _ := x.Update(wizardStartedMsg{w: closed, it: it})
	if cmd == nil {
		t.Fatal("a session started for a closed wizard is kept")
	}
	cmd()
	if got := p.requests(proto.MethodInteractionCancel); len(got) != 1 || it.State() != proto.InteractionCancelled {
		t.Errorf("%d interaction.cancel, state %s", len(got), it.State())
	}
}
