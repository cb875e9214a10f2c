package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/ui/serverinfo"
)

// authTitle names the screen of an OAuth flow's checklist.
const authTitle = "Authorization"

// AuthStepsMsg carries an OAuth flow's checklist as it goes: the TUI shows
// it while the server is being authorized.
type AuthStepsMsg struct {
	// Report is the checklist so far.
	Report checklist.Report
	// Done says the flow ended: authorized, or failed at the step marked.
	Done bool
	// Seq orders the messages of one flow: they may arrive out of order,
	// and an older one is dropped.
	Seq uint64
}

// authSteps shows the checklist of msg in a screen of its own, replacing
// the one it showed before; a screen the user opened meanwhile is left in
// front.
func (m *Model) authSteps(msg AuthStepsMsg) tea.Cmd {
	if msg.Seq != 0 && msg.Seq <= m.authSeq {
		return nil
	}
	m.authSeq = msg.Seq
	if m.overlay != nil {
		if v, ok := m.overlay.(*serverinfo.View); !ok || v.Title() != authTitle {
			return nil
		}
	}
	var b strings.Builder
	_ = msg.Report.Render(&b, checklist.RenderOptions{Running: !msg.Done})
	m.setOverlay(serverinfo.Text(driver{m}, authTitle, strings.TrimRight(b.String(), "\n")))
	return nil
}
