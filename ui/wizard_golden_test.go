package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/ui/explore"
)

// TestGoldenWizardScreen draws the whole screen with a wizard of the
// scripted server's greet tool showing its first prompt, the clock at t0
// (4m30s before the session expires).
func TestGoldenWizardScreen(t *testing.T) {
	m, r, _ := scriptedModel(t, true)
	r.Press("e")
	r.Until("the discovery", func() bool {
		return strings.Contains(r.ScreenText(), "interactive server: enter tries a wizard") && strings.Contains(r.ScreenText(), "› greet")
	})
	r.Press("enter")
	x, ok := m.overlay.(*explore.Explorer)
	if !ok || x.Wizard() == nil {
		t.Fatalf("enter on greet opened no wizard:\n%s", r.ScreenText())
	}
	x.Wizard().SetClock(func() time.Time { return t0 })
	r.Until("the first prompt", func() bool { return strings.Contains(r.ScreenText(), "Your name?") })
	golden(t, "wizard_screen", m.View().Content)
}
