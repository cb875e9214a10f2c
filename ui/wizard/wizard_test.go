package wizard

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestWizardBookTrip walks book_trip: answers the rules refuse on the
// client are not sent, the server's refusal of a past date is shown at
// the widget and answered again, and the completion shows the result.
func TestWizardBookTrip(t *testing.T) {
	m, r, st := demoModel(t)
	wiz := openToolWizard(t, r, m, "book_trip")
	if m.overlay != wiz || len(screentest.SentRequests(st, mcp.MethodInteractionStart)) != 1 {
		t.Fatalf("book_trip: overlay %v, starts %d", m.overlay, len(screentest.SentRequests(st, mcp.MethodInteractionStart)))
	}
	var start mcp.InteractionStartParams
	_ = json.Unmarshal(screentest.SentRequests(st, mcp.MethodInteractionStart)[0], &start)
	if start.ToolName != "book_trip" || string(start.InitialParams) != "{}" || start.Timeout != wizardTimeout.Milliseconds() {
		t.Errorf("interaction.start params %+v", start)
	}
	s := r.ScreenText()
	for _, want := range []string{"Wizard · book_trip", "sessionId session_", "waiting_user", "expires in", "step 1 of 5", "Where do you want to go?"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first prompt's screen lacks %q:\n%s", want, s)
		}
	}

	// Client-side validation: empty, then a digit the pattern refuses.
	r.Press("enter")
	r.TypeText("Oslo1")
	r.Press("enter")
	if n := len(screentest.SentRequests(st, mcp.MethodInteractionRespond)); n != 0 || wiz.phase != wizAnswering {
		t.Fatalf("answers the rules refuse were sent: %d responds, phase %d", n, wiz.phase)
	}
	if s := r.ScreenText(); !strings.Contains(s, "✗ ") || !strings.Contains(s, "pattern") {
		t.Errorf("the client-side refusal does not explain itself:\n%s", s)
	}
	r.Press("backspace")
	r.Press("enter")
	if wiz.phase != wizSending || !strings.Contains(r.ScreenText(), "interaction.respond in flight") {
		t.Errorf("submit: phase %d\n%s", wiz.phase, r.ScreenText())
	}
	waitPrompt(t, r, wiz, "Which class?")
	r.Press("down", "down", "enter")
	waitPrompt(t, r, wiz, "When do you leave?")

	// The server refuses a past date: shown at the widget, answered again.
	r.TypeText("2020-01-01")
	r.Press("enter")
	r.Until("the refusal", func() bool { return wiz.phase == wizAnswering && strings.Contains(r.ScreenText(), "✗ refused:") })
	if s := r.ScreenText(); !strings.Contains(s, "2020-01-01 is not after today") || !strings.Contains(s, "→ Use a date after ") {
		t.Errorf("the refusal is not shown at the widget:\n%s", s)
	}
	if wiz.sessionState() != mcp.InteractionWaitingUser {
		t.Errorf("state after the refusal %s", wiz.sessionState())
	}
	for range 10 {
		r.Press("backspace")
	}
	date := screentest.FutureDate()
	r.TypeText(date)
	r.Press("enter")
	waitPrompt(t, r, wiz, "How many travellers?")
	r.Press("backspace")
	r.TypeText("2")
	r.Press("enter")
	waitPrompt(t, r, wiz, "Book business to Oslo on "+date+" for 2?")
	r.Press("enter")
	r.Until("the completion", func() bool { return wiz.phase == wizEnded })
	s = r.ScreenText()
	for _, want := range []string{"completed", "✓ completed · success", "Booked business to Oslo on " + date + " for 2 traveller(s): BK-",
		"interaction.complete result", `"bookingRef"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the completion lacks %q:\n%s", want, s)
		}
	}
	want := []string{`"Oslo"`, `"business"`, `"2020-01-01"`, `"` + date + `"`, `2`, `true`}
	if got := screentest.RespondValues(t, st); !slices.Equal(got, want) {
		t.Errorf("interaction.respond values %v, want %v", got, want)
	}
	screentest.CheckAskedProgress(t, st, mcp.MethodInteractionRespond)
	r.Press("esc")
	if m.overlay != nil {
		t.Errorf("esc after the end: the wizard is still open")
	}
}

// TestWizardEscCancels cancels the session with esc once y confirms it
// (n or esc keeps it): interaction.cancel goes out with the sessionId, the wizard shows
// the session cancelled, and esc again returns to the list.
func TestWizardEscCancels(t *testing.T) {
	m, r, st := demoModel(t)
	wiz := openToolWizard(t, r, m, "book_trip")
	id := wiz.it.ID()
	r.Press("esc")
	if wiz.phase == wizEnded || !strings.Contains(r.ScreenText(), "Cancel the server's session? y cancels it") {
		t.Fatalf("esc cancelled the server's session without asking:\n%s", r.ScreenText())
	}
	for _, keep := range []string{"n", "esc"} { // esc never confirms a destructive action
		if keep == "esc" {
			r.Press("esc")
		}
		r.Press(keep)
		if wiz.phase == wizEnded || wiz.confirming || len(screentest.SentRequests(st, mcp.MethodInteractionCancel)) != 0 {
			t.Fatalf("%s did not keep the session: phase %d", keep, wiz.phase)
		}
	}
	r.Press("esc", "y")
	if wiz.phase != wizEnded || wiz.sessionState() != mcp.InteractionCancelled {
		t.Fatalf("esc: phase %d, state %s", wiz.phase, wiz.sessionState())
	}
	r.Until("the server's answer", func() bool { return strings.Contains(r.ScreenText(), "the server confirmed: cancelled") })
	if s := r.ScreenText(); !strings.Contains(s, "the session was cancelled") || !strings.Contains(s, "· cancelled") {
		t.Errorf("screen:\n%s", s)
	}
	cancels := screentest.SentRequests(st, mcp.MethodInteractionCancel)
	if len(cancels) != 1 || !strings.Contains(string(cancels[0]), `"sessionId":"`+id+`"`) {
		t.Errorf("interaction.cancel params %s", cancels)
	}
	r.Press("esc")
	if m.overlay != nil {
		t.Errorf("esc after the cancel: the wizard is still open")
	}
}

// TestWizardGetState opens the interaction.getState view: state, history
// of turns and accumulated data; esc returns to the prompt.
func TestWizardGetState(t *testing.T) {
	m, r, st := demoModel(t)
	wiz := openToolWizard(t, r, m, "book_trip")
	r.TypeText("Oslo")
	r.Press("enter")
	waitPrompt(t, r, wiz, "Which class?")
	r.Press("ctrl+g")
	if wiz.state == nil || !strings.Contains(r.ScreenText(), "interaction.getState sent") {
		t.Fatalf("ctrl+g:\n%s", r.ScreenText())
	}
	r.Until("the state", func() bool { return strings.Contains(r.ScreenText(), "accumulatedData") })
	s := r.ScreenText()
	for _, want := range []string{"Wizard · book_trip · interaction.getState", "waiting_user", "tool           book_trip",
		"current prompt Which class? (choice)", "history · 1 turn ──", `#0 Where do you want to go? → "Oslo"`, `"destination": "Oslo"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the state view lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "token") {
		t.Errorf("an opaque sessionId is shown as a token:\n%s", s)
	}
	if got := screentest.SentRequests(st, mcp.MethodInteractionGetState); len(got) != 1 {
		t.Errorf("interaction.getState sent %d times", len(got))
	}
	r.Press("esc")
	if wiz.state != nil || !strings.Contains(r.ScreenText(), "Which class?") {
		t.Errorf("esc in the state view:\n%s", r.ScreenText())
	}
}

// TestWizardStatelessToken walks book_trip_stateless: the header shows
// the token's inner sessionId, and the state view decodes the token.
func TestWizardStatelessToken(t *testing.T) {
	m, r, _ := demoModel(t)
	wiz := openToolWizard(t, r, m, "book_trip_stateless")
	first := wiz.it.ID()
	tok, ok := mcp.DecodeSessionToken(first)
	if !ok {
		t.Fatalf("book_trip_stateless's sessionId %q is no token", first)
	}
	if s := r.ScreenText(); !strings.Contains(s, "token: sessionId "+shortID(tok.SessionID)+" (signed)") {
		t.Errorf("header:\n%s", s)
	}
	r.TypeText("Oslo")
	r.Press("enter")
	waitPrompt(t, r, wiz, "Which class?")
	if wiz.it.ID() == first {
		t.Error("the token did not change with the session")
	}
	r.Press("ctrl+g")
	r.Until("the state", func() bool { return strings.Contains(r.ScreenText(), "accumulatedData") })
	s := goldentest.Plain(wiz.state.out.Body)
	for _, want := range []string{"token · the sessionId is a signed token", "sessionId      " + tok.SessionID + " (signed token, decoded below)",
		"(not verified by the client)", `#0 Where do you want to go? → "Oslo"`, `"tool": "book_trip_stateless"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the state view lacks %q:\n%s", want, s)
		}
	}
}
