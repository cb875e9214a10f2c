package ui

import (
	"testing"
)

// TestGoldenWizardTools draws the explorer's tools of an interactive
// server: tagged wizard, or tools/call only once the server refused one.
func TestGoldenWizardTools(t *testing.T) {
	m, r, _ := scriptedModel(t, true)
	x := openExplorerLoaded(t, r)
	r.Until("the discovery", func() bool { return m.interactive.state == discoverKnown })
	golden(t, "wizard_tools", x.Render(100, 4))
	driver{m}.markNotInteractive("greet")
	x.markWizards()
	golden(t, "wizard_tools_call_only", x.Render(100, 4))
}

// TestGoldenWizardScreen draws the whole screen with a wizard of the
// scripted server's greet tool showing its first prompt, the clock at t0
// (4m30s before the session expires).
func TestGoldenWizardScreen(t *testing.T) {
	m, r, _ := scriptedModel(t, true)
	openToolWizard(t, r, "greet", "Your name?")
	golden(t, "wizard_screen", m.View().Content)
}
