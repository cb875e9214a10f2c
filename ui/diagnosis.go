package ui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/ui/serverinfo"
)

// diagnosedMsg carries the doctor's checklist for connection generation gen.
type diagnosedMsg struct {
	gen    int
	report checklist.Report
}

// diagnose walks the layers to the target in the background when the
// connection of generation gen could not be made for err, or returns nil
// without a Diagnose. A connection the OAuth flow could not authorize is
// not walked: the flow's own checklist, in front already, names the step
// that failed, where the doctor would only say to authorize.
func (m *Model) diagnose(gen int, err error) tea.Cmd {
	run := m.cfg.Diagnose
	var refused *bearer.Error
	if run == nil || errors.As(err, &refused) {
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
	_ = msg.report.Render(&b, checklist.RenderOptions{})
	return m.openOverlay(serverinfo.Text(driver{m}, "Connection doctor", strings.TrimRight(b.String(), "\n")))
}
