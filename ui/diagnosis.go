package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/doctor"
	"github.com/mcpscope/mcpscope/internal/keyhelp"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
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
	return m.openOverlay(newDiagnosisView(m.keys.Keys, msg.report))
}

// diagnosisView shows the doctor's checklist: the same text as
// `mcpscope doctor`, scrollable.
type diagnosisView struct {
	nav    nav.Keys
	close  key.Binding
	lines  []string
	h      int
	offset int
}

var _ screen.Screen = (*diagnosisView)(nil)

// newDiagnosisView renders r (sanitized by the report) into a page.
func newDiagnosisView(keys nav.Keys, r doctor.Report) *diagnosisView {
	var b strings.Builder
	_ = r.Render(&b, doctor.RenderOptions{})
	return &diagnosisView{nav: keys, close: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),
		lines: strings.Split(strings.TrimRight(b.String(), "\n"), "\n")}
}

// Title says what the page is.
func (v *diagnosisView) Title() string { return "Connection doctor" }

// SetSize keeps the height for paging.
func (v *diagnosisView) SetSize(_, h int) { v.h = h }

// Update scrolls, and closes on esc or q.
func (v *diagnosisView) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	if key.Matches(k, v.close) {
		return nil, true
	}
	if mv, ok := nav.Of(k, v.nav, max(v.h-1, 1)); ok {
		v.offset = mv.Apply(v.offset, len(v.lines))
	}
	return nil, false
}

// Render draws the lines from the offset.
func (v *diagnosisView) Render(_, h int) string {
	end := min(v.offset+max(h, 0), len(v.lines))
	return strings.Join(v.lines[min(v.offset, end):end], "\n")
}

// Help lists the view's keys.
func (v *diagnosisView) Help() help.KeyMap {
	return keyhelp.Map{Short: []key.Binding{v.close}, Essential: []key.Binding{v.close}}
}
