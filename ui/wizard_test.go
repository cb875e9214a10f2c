package ui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/goldentest"
	"github.com/mcpscope/mcpscope/proto"
)

// The wizard against the in-process demo over MCP-Flow: every key path of
// a session, with the requests checked in the captured traffic.

// TestWizardBookTrip walks book_trip: answers the rules refuse on the
// client are not sent, the server's refusal of a past date is shown at
// the widget and answered again, and the completion shows the result.
func TestWizardBookTrip(t *testing.T) {
	_, r, st := demoModel(t)
	x, wiz := openToolWizard(t, r, "book_trip")
	if x.mode != modeWizard || len(sentRequests(st, proto.MethodInteractionStart)) != 1 {
		t.Fatalf("enter on book_trip: mode %d, starts %d", x.mode, len(sentRequests(st, proto.MethodInteractionStart)))
	}
	var start proto.InteractionStartParams
	_ = json.Unmarshal(sentRequests(st, proto.MethodInteractionStart)[0], &start)
	if start.ToolName != "book_trip" || string(start.InitialParams) != "{}" || start.Timeout != wizardTimeout.Milliseconds() {
		t.Errorf("interaction.start params %+v", start)
	}
	s := r.screenText()
	for _, want := range []string{"Wizard · book_trip", "sessionId session_", "waiting_user", "expires in", "step 1 of 5", "Where do you want to go?"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first prompt's screen lacks %q:\n%s", want, s)
		}
	}

	// Client-side validation: empty, then a digit the pattern refuses.
	r.press("enter")
	r.typeText("Oslo1")
	r.press("enter")
	if n := len(sentRequests(st, proto.MethodInteractionRespond)); n != 0 || wiz.phase != wizAnswering {
		t.Fatalf("answers the rules refuse were sent: %d responds, phase %d", n, wiz.phase)
	}
	if s := r.screenText(); !strings.Contains(s, "✗ ") || !strings.Contains(s, "pattern") {
		t.Errorf("the client-side refusal does not explain itself:\n%s", s)
	}
	r.press("backspace")
	r.press("enter")
	if wiz.phase != wizSending || !strings.Contains(r.screenText(), "interaction.respond in flight") {
		t.Errorf("submit: phase %d\n%s", wiz.phase, r.screenText())
	}
	waitPrompt(t, r, wiz, "Which class?")
	r.press("down", "down", "enter")
	waitPrompt(t, r, wiz, "When do you leave?")

	// The server refuses a past date: shown at the widget, answered again.
	r.typeText("2020-01-01")
	r.press("enter")
	r.until("the refusal", func() bool { return wiz.phase == wizAnswering && strings.Contains(r.screenText(), "✗ refused:") })
	if s := r.screenText(); !strings.Contains(s, "2020-01-01 is not after today") || !strings.Contains(s, "→ Use a date after ") {
		t.Errorf("the refusal is not shown at the widget:\n%s", s)
	}
	if wiz.sessionState() != proto.InteractionWaitingUser {
		t.Errorf("state after the refusal %s", wiz.sessionState())
	}
	for range 10 {
		r.press("backspace")
	}
	date := futureDate()
	r.typeText(date)
	r.press("enter")
	waitPrompt(t, r, wiz, "How many travellers?")
	r.press("backspace")
	r.typeText("2")
	r.press("enter")
	waitPrompt(t, r, wiz, "Book business to Oslo on "+date+" for 2?")
	r.press("enter")
	r.until("the completion", func() bool { return wiz.phase == wizEnded })
	s = r.screenText()
	for _, want := range []string{"completed", "✓ completed · success", "Booked business to Oslo on " + date + " for 2 traveller(s): BK-",
		"interaction.complete result", `"bookingRef"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the completion lacks %q:\n%s", want, s)
		}
	}
	want := []string{`"Oslo"`, `"business"`, `"2020-01-01"`, `"` + date + `"`, `2`, `true`}
	if got := respondValues(t, st); !slices.Equal(got, want) {
		t.Errorf("interaction.respond values %v, want %v", got, want)
	}
	r.press("esc")
	if x.mode != modeList || x.wiz != nil {
		t.Errorf("esc after the end: mode %d", x.mode)
	}
}

// TestWizardEscCancels cancels the session with esc: interaction.cancel
// goes out with the sessionId, the wizard shows the session cancelled,
// and esc again returns to the list.
func TestWizardEscCancels(t *testing.T) {
	m, r, st := demoModel(t)
	x, wiz := openToolWizard(t, r, "book_trip")
	id := wiz.it.ID()
	r.press("esc")
	if wiz.phase != wizEnded || wiz.sessionState() != proto.InteractionCancelled {
		t.Fatalf("esc: phase %d, state %s", wiz.phase, wiz.sessionState())
	}
	r.until("the server's answer", func() bool { return strings.Contains(r.screenText(), "the server confirmed: cancelled") })
	if s := r.screenText(); !strings.Contains(s, "the session was cancelled") || !strings.Contains(s, "· cancelled") {
		t.Errorf("screen:\n%s", s)
	}
	cancels := sentRequests(st, proto.MethodInteractionCancel)
	if len(cancels) != 1 || !strings.Contains(string(cancels[0]), `"sessionId":"`+id+`"`) {
		t.Errorf("interaction.cancel params %s", cancels)
	}
	r.press("esc")
	if x.mode != modeList || m.overlay == nil {
		t.Errorf("esc after the cancel: mode %d, overlay %v", x.mode, m.overlay)
	}
}

// TestWizardGetState opens the interaction.getState view: state, history
// of turns and accumulated data; esc returns to the prompt.
func TestWizardGetState(t *testing.T) {
	_, r, st := demoModel(t)
	_, wiz := openToolWizard(t, r, "book_trip")
	r.typeText("Oslo")
	r.press("enter")
	waitPrompt(t, r, wiz, "Which class?")
	r.press("ctrl+g")
	if wiz.state == nil || !strings.Contains(r.screenText(), "interaction.getState sent") {
		t.Fatalf("ctrl+g:\n%s", r.screenText())
	}
	r.until("the state", func() bool { return strings.Contains(r.screenText(), "accumulatedData") })
	s := r.screenText()
	for _, want := range []string{"Wizard · book_trip · interaction.getState", "waiting_user", "tool           book_trip",
		"current prompt Which class? (choice)", "history · 1 turn ──", `#0 Where do you want to go? → "Oslo"`, `"destination": "Oslo"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the state view lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "token") {
		t.Errorf("an opaque sessionId is shown as a token:\n%s", s)
	}
	if got := sentRequests(st, proto.MethodInteractionGetState); len(got) != 1 {
		t.Errorf("interaction.getState sent %d times", len(got))
	}
	r.press("esc")
	if wiz.state != nil || !strings.Contains(r.screenText(), "Which class?") {
		t.Errorf("esc in the state view:\n%s", r.screenText())
	}
}

// TestWizardStatelessToken walks book_trip_stateless: the header shows
// the token's inner sessionId, and the state view decodes the token.
func TestWizardStatelessToken(t *testing.T) {
	_, r, _ := demoModel(t)
	_, wiz := openToolWizard(t, r, "book_trip_stateless")
	first := wiz.it.ID()
	tok, ok := proto.DecodeSessionToken(first)
	if !ok {
		t.Fatalf("book_trip_stateless's sessionId %q is no token", first)
	}
	if s := r.screenText(); !strings.Contains(s, "token: sessionId "+shortID(tok.SessionID)+" (signed)") {
		t.Errorf("header:\n%s", s)
	}
	r.typeText("Oslo")
	r.press("enter")
	waitPrompt(t, r, wiz, "Which class?")
	if wiz.it.ID() == first {
		t.Error("the token did not change with the session")
	}
	r.press("ctrl+g")
	r.until("the state", func() bool { return strings.Contains(r.screenText(), "accumulatedData") })
	s := goldentest.Plain(wiz.state.out.Body)
	for _, want := range []string{"token · the sessionId is a signed token", "sessionId      " + tok.SessionID + " (signed token, decoded below)",
		"(not verified by the client)", `#0 Where do you want to go? → "Oslo"`, `"tool": "book_trip_stateless"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the state view lacks %q:\n%s", want, s)
		}
	}
}

// TestWizardNotInteractiveTool: the demo refuses a wizard of echo with
// -32007, and the explorer opens its tools/call form instead, then goes
// straight to the form for it.
func TestWizardNotInteractiveTool(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.until("the discovery", func() bool { return r.m.interactive.state == discoverKnown })
	r.press("/")
	r.typeText("echo")
	r.press("enter")
	if e, _ := x.list().selected(); e.name != "echo" || e.run != toolWizard || !strings.Contains(r.screenText(), "[wizard]") {
		t.Fatalf("echo before the refusal: %+v\n%s", e, r.screenText())
	}
	r.press("enter")
	r.until("the form", func() bool { return x.mode == modeForm })
	if s := r.screenText(); !strings.Contains(s, "echo is not interactive (error -32007 NOT_INTERACTIVE") || !strings.Contains(s, "tools/call echo") {
		t.Errorf("the fallback form:\n%s", s)
	}
	r.press("esc")
	if e, _ := x.list().selected(); e.run != toolCallOnly || !strings.Contains(r.screenText(), "[tools/call only]") {
		t.Errorf("echo after the refusal: %+v", e)
	}
	r.press("enter")
	if x.mode != modeForm || len(sentRequests(st, proto.MethodInteractionStart)) != 1 {
		t.Errorf("enter again: mode %d, %d starts", x.mode, len(sentRequests(st, proto.MethodInteractionStart)))
	}
}
