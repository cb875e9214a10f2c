package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/doctor"
	"github.com/mcpscope/mcpscope/ui/serverinfo"
)

// diagnosedMsg carries the doctor's checklist for connection generation gen.
type diagnosedMsg struct {
	gen    int
	report doctor.Report
}

// diagnose walks the layers to the target in the background when the
// connection of generation gen could not be made, or returns nil without
// a Diagnose.
func (m *Model) diagnose(gen int) tea.Cmd {
	run := m.cfg.Diagnose
	if run == nil {
		return nil
	}
	ctx := m.ctx
	return func() tea.Msg { return diagnosedMsg{gen: gen, report: run(ctx)} }
}

// diagnosed shows the checklist of the current generation.
func (m *Model) diagnosed(msg diagnosedMsg) tea.Cmd {
	if msg.gen != m.conn.gen || m.conn.ready {
		return nil
	}
	var b strings.Builder
	_ = msg.report.Render(&b, doctor.RenderOptions{})
	return m.openOverlay(serverinfo.Text(driver{m}, "Connection doctor", strings.TrimRight(b.String(), "\n")))
}
