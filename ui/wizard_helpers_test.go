package ui

import (
	"testing"

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
