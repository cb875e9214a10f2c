package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/fuzzy"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Picker lists things to open under a title and a column header: typing
// filters them (fuzzy, on each item's Match text), ↑/↓ choose, enter
// opens, esc or ctrl+c leaves. Chosen says what was picked once the
// program ends.
type Picker struct {
	all    []PickItem
	shown  []int // indexes into all, best match first
	filter string
	cursor int
	chosen string
	styles look.Styles
	w, h   int
	title  string
	header string
	noun   string
}

// PickItem is one line of a Picker: its ID (what Chosen returns), its
// row as shown, and the text the filter matches.
type PickItem struct{ ID, Row, Match string }

// NewListPicker lists items under title and the column header; noun names
// an item in the "no … matches" line.
func NewListPicker(title, header, noun string, items []PickItem) *Picker {
	p := &Picker{all: items, title: title, header: header, noun: noun, styles: look.NewStyles(true), w: 80, h: 24}
	p.refilter()
	return p
}

// NewPicker lists recordings to open, newest first: their target, when
// they started, frames, size and whether they ended cleanly; the filter
// matches the target and the file name, and Chosen is the file's path.
func NewPicker(dir string, entries []recordings.Entry) *Picker {
	items := make([]PickItem, len(entries))
	for i, e := range entries {
		items[i] = PickItem{ID: e.Path, Row: row(e), Match: e.Header.Target + " " + e.Path}
	}
	return NewListPicker(fmt.Sprintf("Recordings in %s", termtext.Line(dir)),
		fmt.Sprintf("%-19s %9s %9s  %-9s  %-10s %s", "started", "frames", "size", "", "transport", "target"), "recording", items)
}

// Chosen is the ID of the item picked, or "" when the user left.
func (p *Picker) Chosen() string { return p.chosen }

// Init asks for the terminal's background.
func (p *Picker) Init() tea.Cmd { return tea.RequestBackgroundColor }

// Update moves, filters, picks and leaves.
func (p *Picker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		p.styles = look.NewStyles(msg.IsDark())
	case tea.KeyPressMsg:
		switch msg.String() {
		case "ctrl+c", "esc":
			return p, tea.Quit
		case "enter":
			if len(p.shown) > 0 {
				p.chosen = p.all[p.shown[p.cursor]].ID
				return p, tea.Quit
			}
		case "up", "ctrl+p":
			p.cursor = max(p.cursor-1, 0)
		case "down", "ctrl+n":
			p.cursor = min(p.cursor+1, max(len(p.shown)-1, 0))
		case "backspace":
			if p.filter != "" {
				r := []rune(p.filter)
				p.filter = string(r[:len(r)-1])
				p.refilter()
			}
		default:
			if t := msg.Key().Text; t != "" {
				p.filter += t
				p.refilter()
			}
		}
	}
	return p, nil
}

// refilter keeps the entries the filter matches, best first.
func (p *Picker) refilter() {
	type scored struct{ i, score int }
	var s []scored
	for i, e := range p.all {
		if score, ok := fuzzy.Score(p.filter, e.Match); ok {
			s = append(s, scored{i, score})
		}
	}
	slices.SortStableFunc(s, func(a, b scored) int { return b.score - a.score })
	p.shown = p.shown[:0]
	for _, x := range s {
		p.shown = append(p.shown, x.i)
	}
	p.cursor = min(p.cursor, max(len(p.shown)-1, 0))
}

// row renders one entry: started, frames, size, state, transport, target.
func row(e recordings.Entry) string {
	if e.Err != nil {
		return fmt.Sprintf("%-19s  %s", e.ModTime.Local().Format("2006-01-02 15:04:05"), "unreadable: "+e.Err.Error())
	}
	state := "ended"
	if !e.Ended {
		state = "cut short"
	}
	return fmt.Sprintf("%-19s %9d %9s  %-9s  %-10s %s", e.Header.Started.Local().Format("2006-01-02 15:04:05"), e.Frames,
		look.ByteSize(e.Size), state, e.Header.Transport, e.Header.Target)
}

// View draws the list under a title and a filter line.
func (p *Picker) View() tea.View {
	st := p.styles
	lines := []string{
		st.TitleFocused.Render(p.title),
		st.Ink.Muted.Paint("type to filter · ↑/↓ choose · enter open · esc leave"),
		"> " + termtext.Line(p.filter),
		st.ColumnHeader.Render(p.header),
	}
	room := max(p.h-len(lines), 1)
	top := max(0, p.cursor-room+1)
	for n, i := range p.shown[top:min(len(p.shown), top+room)] {
		text := look.FitLine(termtext.Line(p.all[i].Row), p.w)
		if top+n == p.cursor {
			text = st.Ink.SelFocused.Paint(text)
		}
		lines = append(lines, text)
	}
	if len(p.shown) == 0 {
		lines = append(lines, st.Ink.Muted.Paint("no "+p.noun+" matches "+termtext.Line(p.filter)))
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	return v
}
