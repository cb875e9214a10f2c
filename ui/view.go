package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// filterHelp explains the filter words on the help screen.
const filterHelp = "filter words (all must match): a method substring · > sent · < received · #ID · error · " +
	"control | stream | datagram | stderr"

// View draws the whole screen: tab bar, panes, help or filter line and
// status bar, in the alternate screen with mouse reporting.
func (m *Model) View() tea.View {
	w, h := m.width, m.height
	lines := make([]string, 0, h)
	lines = append(lines, m.renderTabs(w))
	lines = append(lines, m.renderBody(w, max(h-chromeLines, 0))...)
	switch {
	case m.quitAsked > 0:
		lines = append(lines, look.FitLine(m.styles.Notice.Render(" "+m.quitQuestion()+" "), w))
	case m.filtering:
		lines = append(lines, look.FitLine(m.input.View(), w))
	case m.overlay != nil && !m.wireFront && !m.showHelp:
		lines = append(lines, look.FitLine(m.help.ShortHelpView(m.screenHints()), w))
	case m.overlay != nil && !m.showHelp:
		lines = append(lines, look.FitLine(m.help.ShortHelpView(m.wireHints()), w))
	default:
		lines = append(lines, look.FitLine(m.help.ShortHelpView(m.keys.ShortHelp()), w))
	}
	lines = append(lines, m.renderStatus(w))
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "mcpscope " + look.OneLine(m.cfg.Target)
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

// fullHelp renders the help screen: the key columns, as many side by side
// as fit in w, then the filter words.
func (m *Model) fullHelp(w int) string {
	groups := m.keys.FullHelp()
	hm := m.help
	hm.SetWidth(0)
	var text string
	for per := len(groups); per >= 1; per-- {
		var rows []string
		for i := 0; i < len(groups); i += per {
			rows = append(rows, hm.FullHelpView(groups[i:min(i+per, len(groups))]))
		}
		text = strings.Join(rows, "\n\n")
		if maxWidth(text) <= w {
			break
		}
	}
	return text + "\n\n" + m.styles.Ink.Muted.Paint(ansi.Hardwrap(filterHelp, w, true))
}

// maxWidth is the width of the widest line of s.
func maxWidth(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, ansi.StringWidth(l))
	}
	return n
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

// screenHints are the hint bar while the open screen has the keys: its
// own keys, then the one that shows the wire.
func (m *Model) screenHints() []key.Binding {
	wire := screen.Relabel(m.keys.Wire, "wire")
	if m.layout.screen.w < m.width {
		wire = screen.Relabel(m.keys.Wire, "keys to traffic")
	}
	return append(m.overlay.Help().ShortHelp(), wire)
}

// wireHints are the hint bar while the panes have the keys in front of
// an open screen: the way back to it first.
func (m *Model) wireHints() []key.Binding {
	back := screen.Relabel(m.keys.Wire, "back to "+look.OneLine(m.overlay.Title()))
	return append([]key.Binding{back}, m.keys.ShortHelp()...)
}
