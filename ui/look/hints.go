package look

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
)

// hintSep is what stands between two keys of the hint bar, sepWidth its
// width in columns.
const (
	hintSep  = " • "
	sepWidth = 3
)

// helpColumnSep stands between two columns of the help screen.
const helpColumnSep = "    "

// hint is one key of the hint bar as drawn, and its width.
type hint struct {
	text  string
	width int
}

// newHint draws b as "key desc".
func (s *Styles) newHint(b key.Binding) hint {
	h := b.Help()
	return hint{
		text:  s.Help.ShortKey.Render(h.Key) + " " + s.Help.ShortDesc.Render(h.Desc),
		width: ansi.StringWidth(h.Key) + 1 + ansi.StringWidth(h.Desc),
	}
}

// HintBar draws the hint bar in exactly w columns. open, the key that
// opens the help, comes first and is always kept; then the short keys of
// m in their rank order: every essential one, the others by rank while
// they fit (the first that does not fit ends them, so a key never shows
// while a more used one is left out). An ellipsis stands where keys were
// left out; the help lists them all. Only when the essential keys alone
// do not fit are the least used of them left out too.
func (s *Styles) HintBar(open key.Binding, m keyhelp.Map, w int) string {
	var keys []key.Binding
	for _, b := range m.Short {
		if b.Enabled() && b.Help().Key != "" {
			keys = append(keys, b)
		}
	}
	hints := make([]hint, len(keys))
	kept := make([]bool, len(keys)) // essential, and kept
	must, all := s.newHint(open).width, s.newHint(open).width
	for i, b := range keys {
		hints[i] = s.newHint(b)
		all += sepWidth + hints[i].width
		if kept[i] = m.IsEssential(b); kept[i] {
			must += sepWidth + hints[i].width
		}
	}
	ellipsis := 0
	if all > w {
		ellipsis = sepWidth + 1
	}
	budget := w - must - ellipsis
	for i := len(keys) - 1; i >= 0 && budget < 0; i-- {
		if kept[i] {
			kept[i], must = false, must-sepWidth-hints[i].width
			budget = min(w-must-ellipsis, 0) // no other key while an essential one is left out
		}
	}
	parts := []string{s.newHint(open).text}
	cut := false
	for i, b := range keys {
		switch {
		case kept[i]:
			parts = append(parts, hints[i].text)
		case m.IsEssential(b): // an essential key the width has no room for
			if !cut {
				cut = true
				parts = append(parts, s.Help.Ellipsis.Render("…"))
			}
		case !cut && sepWidth+hints[i].width <= budget:
			budget -= sepWidth + hints[i].width
			parts = append(parts, hints[i].text)
		case !cut:
			cut = true
			parts = append(parts, s.Help.Ellipsis.Render("…"))
		}
	}
	return FitLine(strings.Join(parts, s.Help.ShortSeparator.Render(hintSep)), w)
}

// HelpColumns draws the columns of keys of a help screen in w columns:
// side by side while they fit, then on the next rows, in order.
func (s *Styles) HelpColumns(groups [][]key.Binding, w int) string {
	hm := help.New()
	hm.Styles = s.Help
	sep := s.Help.FullSeparator.Render(helpColumnSep)
	var rows, row []string
	width := 0
	for _, g := range groups {
		col := hm.FullHelpView([][]key.Binding{g})
		if col == "" {
			continue
		}
		cw := maxWidth(col)
		if len(row) > 0 && width+len(helpColumnSep)+cw > w {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, width = nil, 0
		}
		if len(row) > 0 {
			row, width = append(row, sep), width+len(helpColumnSep)
		}
		row, width = append(row, col), width+cw
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	return strings.Join(rows, "\n\n")
}

// maxWidth is the width of the widest line of s.
func maxWidth(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, ansi.StringWidth(l))
	}
	return n
}
