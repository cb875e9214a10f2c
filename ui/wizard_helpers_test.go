package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/screentest"
	"github.com/mcpscope/mcpscope/proto"
)

// scriptedModel connects a model at 100×30 to a screentest.WizardPeer;
// the runner drives it.
func scriptedModel(t *testing.T, interactive bool) (*Model, *cmdRunner, *screentest.WizardPeer) {
	t.Helper()
	m := newTestModel(t, capture.NewStore(capture.Config{}), 100, 30)
	p, s := screentest.ConnectWizardPeer(t, m.cfg.Store, interactive)
	m.conn = connection{link: Link{Transport: p, Session: s}, gen: 1, dialect: proto.DialectMCP, ready: true}
	return m, newRunner(t, m), p
}

// openToolWizard opens the explorer, waits for its lists and the
// discovery, selects tool and presses enter: it returns the explorer once
// its wizard shows the first prompt, whose message holds prompt. The
// wizard's clock is fixed at t0.
func openToolWizard(t *testing.T, r *cmdRunner, tool, prompt string) *explorer {
	t.Helper()
	x := openExplorerLoaded(t, r)
	r.Until("the discovery of interactive sessions", func() bool { return r.m.interactive.state == discoverKnown })
	r.Press("/")
	r.TypeText(tool)
	r.Press("enter", "enter")
	if x.wiz == nil {
		t.Fatalf("enter on %s opened no wizard (mode %d):\n%s", tool, x.mode, r.ScreenText())
	}
	x.wiz.SetClock(func() time.Time { return t0 })
	r.Until("the first prompt", func() bool { return strings.Contains(r.ScreenText(), prompt) })
	return x
}
