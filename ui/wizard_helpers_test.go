package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/explore"
)

// scriptedModel connects a model at 100×30 to a screentest.WizardPeer;
// the runner drives it.
func scriptedModel(t *testing.T, interactive bool) (*Model, *cmdRunner, *screentest.WizardPeer) {
	t.Helper()
	m := newTestModel(t, capture.NewStore(capture.Config{}), 100, 30)
	p, s := screentest.ConnectWizardPeer(t, m.cfg.Store, interactive)
	m.conn = connection{link: Link{Transport: p, Session: s}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	return m, newRunner(t, m), p
}

// openGreetWizard opens the explorer of a scriptedModel and, once the
// discovery answered, a wizard of its greet tool; it returns the explorer
// holding the wizard.
func openGreetWizard(t *testing.T, m *Model, r *cmdRunner) *explore.Explorer {
	t.Helper()
	r.Press("e")
	r.Until("the discovery", func() bool {
		return strings.Contains(r.ScreenText(), "interactive server: enter tries a wizard") && strings.Contains(r.ScreenText(), "› greet")
	})
	r.Press("enter")
	x, ok := m.overlay.(*explore.Explorer)
	if !ok || x.Wizard() == nil {
		t.Fatalf("enter on greet opened no wizard:\n%s", r.ScreenText())
	}
	return x
}
