package ui

import (
	"strings"
	"testing"
	"time"
)

// TestGoldenWizardScreen draws the whole screen with a wizard of the
// scripted server's greet tool showing its first prompt, the clock at t0
// (4m30s before the session expires).
func TestGoldenWizardScreen(t *testing.T) {
	m, r, _ := scriptedModel(t, true)
	x := openGreetWizard(t, m, r)
	x.Wizard().SetClock(func() time.Time { return t0 })
	r.Until("the first prompt", func() bool { return strings.Contains(r.ScreenText(), "Your name?") })
	golden(t, "wizard_screen", m.View().Content)
}
