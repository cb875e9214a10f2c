package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/ui/logsview"
	"github.com/mcpscope/mcpscope/ui/screen"
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
	if s.Era() == client.EraModern || s.HandshakeFree() {
		s.SetLogLevel(level)
		return nil
	}
	return logsview.SetLevelCmd(m.ctx, s, level, screen.AskProgress())
}
