package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// askLogLevel asks the server just connected for its log messages at
// Config.LogLevel and above: logging/setLevel up to 2025-11-25; in
// 2026-07-28, which has no setLevel, every request the session sends
// carries the level in _meta. The Log view (L) shows the messages.
func (m *Model) askLogLevel(s *client.Session) tea.Cmd {
	level := m.cfg.LogLevel
	if level == "" {
		return nil
	}
	s.SetLogLevel(level)
	if s.Era() == client.EraModern || s.HandshakeFree() {
		return nil
	}
	return m.send(Request{Method: mcp.MethodLoggingSetLevel, Params: mcp.SetLevelParams{Level: level}})
}
