package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/screentest"
	"github.com/mcpscope/mcpscope/proto"
)

// The wizard against a scripted seed-002 server: what the demo never
// does on purpose (an answer held in flight, illegal transitions, session
// errors, timeout warnings) and a server that is not interactive.

// TestWizardDegrade: a server that is not interactive (`capabilities` →
// -32601) keeps the explorer as it was: no wizard tags, enter opens the
// tools/call form, no interaction.start; the discovery is not asked again
// on the same connection.
func TestWizardDegrade(t *testing.T) {
	m, r, p := scriptedModel(t, false)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return m.interactive.state == discoverKnown })
	if m.interactive.caps.Interactive || m.interactive.err != nil || len(p.Requests(proto.MethodCapabilities)) != 1 {
		t.Fatalf("discovery %+v, %d capabilities requests", m.interactive, len(p.Requests(proto.MethodCapabilities)))
	}
	s := r.ScreenText()
	if strings.Contains(s, "wizard") || strings.Contains(s, "interactive server") {
		t.Errorf("a server that is not interactive has wizards:\n%s", s)
	}
	r.Press("enter")
	if x.mode != modeForm || !strings.Contains(r.ScreenText(), "tools/call greet") {
		t.Fatalf("enter on greet: mode %d\n%s", x.mode, r.ScreenText())
	}
	r.Press("esc", "esc")
	r.Press("e")
	r.Until("the lists again", func() bool { return m.overlay.(*explorer).lists[tabTools].state == listLoaded })
	if n := len(p.Requests(proto.MethodCapabilities)); n != 1 || len(p.Requests(proto.MethodInteractionStart)) != 0 {
		t.Errorf("%d capabilities requests, %d starts", n, len(p.Requests(proto.MethodInteractionStart)))
	}
}

// TestExploreWizardEscWhileStarting: esc while interaction.start is in
// flight closes the explorer's wizard, back to the list, and tells the
// server the client stopped waiting.
func TestExploreWizardEscWhileStarting(t *testing.T) {
	_, r, p := scriptedModel(t, true)
	p.SetHoldStart(true)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return r.m.interactive.state == discoverKnown })
	r.Press("enter")
	if x.mode != modeWizard || !strings.Contains(r.ScreenText(), "interaction.start sent, waiting for the session") {
		t.Fatalf("enter on greet: mode %d\n%s", x.mode, r.ScreenText())
	}
	screentest.WaitFor(t, "the start on the wire", func() bool { return len(p.Requests(proto.MethodInteractionStart)) == 1 })
	r.Press("esc")
	if x.mode != modeList || x.wiz != nil {
		t.Fatalf("esc while starting: mode %d", x.mode)
	}
	start := p.Requests(proto.MethodInteractionStart)[0]
	screentest.WaitFor(t, "notifications/cancelled", func() bool { return len(p.Requests(proto.MethodNotifyCancelled)) == 1 })
	var c proto.CancelledNotificationParams
	if err := json.Unmarshal(p.Requests(proto.MethodNotifyCancelled)[0].Params, &c); err != nil || c.RequestID.Key() != start.ID.Key() {
		t.Errorf("notifications/cancelled %+v for interaction.start id %s", c, start.ID)
	}
}

// TestWizardDiscoveryError: a `capabilities` request that fails with
// anything but -32601 or -32007 is shown on the tools list, whose tools
// keep their form.
func TestWizardDiscoveryError(t *testing.T) {
	m, r, p := scriptedModel(t, false)
	p.SetCapsCode(proto.CodeInternalError)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return m.interactive.state == discoverKnown })
	if s := r.ScreenText(); !strings.Contains(s, "capabilities failed: error -32603 Internal error: capabilities") {
		t.Errorf("list head:\n%s", s)
	}
	r.Press("enter")
	if x.mode != modeForm {
		t.Errorf("enter: mode %d", x.mode)
	}
}
