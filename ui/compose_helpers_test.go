package ui

import (
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// connectFake connects m to a fake peer, as a finished dial would.
func connectFake(t *testing.T, m *Model) *screentest.FakePeer {
	t.Helper()
	f, s := screentest.Connect(t, m.cfg.Store)
	m.conn = connection{link: Link{Transport: f, Session: s}, gen: 1, dialect: mcp.DialectMCP, ready: true}
	return f
}
