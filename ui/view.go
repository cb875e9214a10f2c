package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/look"
)

// View draws the whole screen: tab bar, panes, help or filter line and
// status bar, in the alternate screen with mouse reporting.
func (m *Model) View() tea.View {
	if m.hold && m.shown != nil {
		return *m.shown // a slice of a refresh's pass changes nothing on screen yet
	}
	w, h := m.width, m.height
	lines := make([]string, 0, h)
	lines = append(lines, m.renderTabs(w))
	lines = append(lines, m.renderBody(w, max(h-chromeLines, 0))...)
	// The line over the status bar is the hint bar's, unless the quit
	// question, the filter input or messages too long for the bar have it.
	bar, above := m.renderStatus(w, m.quitAsked == 0 && !m.filtering)
	switch {
	case m.quitAsked > 0:
		lines = append(lines, look.FitLine(m.styles.Notice.Render(" "+m.quitQuestion()+" "), w))
	case m.filtering:
		lines = append(lines, look.FitLine(m.input.View(), w))
	case above != "":
		lines = append(lines, above)
	default:
		lines = append(lines, m.hintBar(w))
	}
	lines = append(lines, bar)
	lines = m.styles.Pictures.Place(lines) // where iTerm2 and sixel pictures go
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "mcpscope " + look.OneLine(m.cfg.Target)
	m.shown = &v
	return v
}

// renderBody draws the panes (or the help screen) in h lines.
func (m *Model) renderBody(w, h int) []string {
	if m.showHelp {
		return look.FitBlock(m.fullHelp(w), w, h)
	}
	if m.layout.screen.h > 0 {
		return m.renderBeside(w, h)
	}
	if !m.layout.split {
		return m.renderArea(m.focus, w, h)
	}
	l := m.layout
	var left, right []string
	for _, p := range []paneID{paneTraffic, paneStreams, paneDatagrams} {
		left = append(left, m.renderArea(p, l.area[p].w, l.area[p].h)...)
	}
	for _, p := range []paneID{paneDetail, paneHex} {
		right = append(right, m.renderArea(p, l.area[p].w, l.area[p].h)...)
	}
	sep := m.styles.Ink.Muted.Paint("│")
	return look.ZipRows(left, right, h, func(a, b string) string { return a + sep + b })
}

// renderArea draws a pane's title line and body in w×h.
func (m *Model) renderArea(p paneID, w, h int) []string {
	if h <= 0 {
		return nil
	}
	pn := m.pane(p)
	focused := p == m.focus && m.wireHasKeys()
	title := m.styles.Title
	if focused {
		title = m.styles.TitleFocused
	}
	out := make([]string, 0, h)
	out = append(out, title.Render(look.Cell(" "+pn.Title(), w)))
	if h > 1 {
		out = append(out, strings.Split(pn.Render(w, h-1, focused), "\n")...)
	}
	return out
}

// renderTabs draws the tab bar: the target and one tab per present pane, the
// focused one highlighted.
func (m *Model) renderTabs(w int) string {
	var b strings.Builder
	b.WriteString(m.styles.TitleFocused.Render(" mcpscope "))
	for p := range paneCount {
		if !m.panes[p] {
			continue
		}
		label := " " + paneNames[p] + " "
		if p == m.focus {
			b.WriteString(m.styles.TabActive.Render(label))
		} else {
			b.WriteString(m.styles.Tab.Render(label))
		}
	}
	b.WriteString(m.styles.Ink.Muted.Paint("  " + look.OneLine(m.cfg.Target)))
	return look.FitLine(b.String(), w)
}

// tabAt returns the pane whose tab is at column x of the tab bar.
func (m *Model) tabAt(x int) (paneID, bool) {
	pos := ansi.StringWidth(" mcpscope ")
	for p := range paneCount {
		if !m.panes[p] {
			continue
		}
		n := len(paneNames[p]) + 2
		if x >= pos && x < pos+n {
			return p, true
		}
		pos += n
	}
	return 0, false
}

// renderOverlay draws the open overlay's title line and body in w×h.
func (m *Model) renderOverlay(w, h int) []string {
	if h <= 0 {
		return nil
	}
	title := m.styles.TitleFocused
	if m.wireFront {
		title = m.styles.Title
	}
	out := make([]string, 0, h)
	out = append(out, title.Render(look.Cell(" "+m.overlay.Title(), w)))
	if h > 1 {
		out = append(out, look.FitBlock(m.overlay.Render(w, h-1), w, h-1)...)
	}
	return out
}

// renderBeside draws the open screen in its area and, when the wire is
// beside it, the panes laid out on its right.
func (m *Model) renderBeside(w, h int) []string {
	l := m.layout
	scr := m.renderOverlay(l.screen.w, h)
	if l.screen.w >= w {
		return scr
	}
	var right []string
	for p := range paneCount {
		if l.visible(p) {
			right = append(right, m.renderArea(p, l.area[p].w, l.area[p].h)...)
		}
	}
	sep := m.styles.Ink.Muted.Paint("│")
	return look.ZipRows(scr, right, h, func(a, b string) string { return look.FitLine(a, l.screen.w) + sep + b })
}
