package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/screentest"
	"github.com/mcpscope/mcpscope/proto"
)

// The wizard against the in-process demo over MCP-Flow: every key path of
// a session, with the requests checked in the captured traffic.

// TestWizardNotInteractiveTool: the demo refuses a wizard of echo with
// -32007, and the explorer opens its tools/call form instead, then goes
// straight to the form for it.
func TestWizardNotInteractiveTool(t *testing.T) {
	_, r, st := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return r.m.interactive.state == discoverKnown })
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter")
	if e, _ := x.list().selected(); e.name != "echo" || e.run != toolWizard || !strings.Contains(r.ScreenText(), "[wizard]") {
		t.Fatalf("echo before the refusal: %+v\n%s", e, r.ScreenText())
	}
	r.Press("enter")
	r.Until("the form", func() bool { return x.mode == modeForm })
	if s := r.ScreenText(); !strings.Contains(s, "echo is not interactive (error -32007 NOT_INTERACTIVE") || !strings.Contains(s, "tools/call echo") {
		t.Errorf("the fallback form:\n%s", s)
	}
	r.Press("esc")
	if e, _ := x.list().selected(); e.run != toolCallOnly || !strings.Contains(r.ScreenText(), "[tools/call only]") {
		t.Errorf("echo after the refusal: %+v", e)
	}
	r.Press("enter")
	if x.mode != modeForm || len(screentest.SentRequests(st, proto.MethodInteractionStart)) != 1 {
		t.Errorf("enter again: mode %d, %d starts", x.mode, len(screentest.SentRequests(st, proto.MethodInteractionStart)))
	}
}

// TestExploreRunsWizards: enter on book_trip opens its wizard in the
// explorer; esc cancels the session, and esc again returns to the list
// with the explorer still open.
func TestExploreRunsWizards(t *testing.T) {
	m, r, st := demoModel(t)
	x := openToolWizard(t, r, "book_trip", "Where do you want to go?")
	if x.mode != modeWizard || len(screentest.SentRequests(st, proto.MethodInteractionStart)) != 1 {
		t.Fatalf("enter on book_trip: mode %d, starts %d", x.mode, len(screentest.SentRequests(st, proto.MethodInteractionStart)))
	}
	r.Press("esc")
	r.Until("the server's answer", func() bool { return strings.Contains(r.ScreenText(), "the server confirmed: cancelled") })
	r.Press("esc")
	if x.mode != modeList || x.wiz != nil || m.overlay == nil {
		t.Errorf("esc after the cancel: mode %d, overlay %v", x.mode, m.overlay)
	}
}
