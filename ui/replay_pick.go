package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/termtext"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/fuzzy"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Picker lists recordings to open, newest first: their target, when they
// started, frames, size and whether they ended cleanly. Typing filters
// them (fuzzy, on the target and the file name), ↑/↓ choose, enter opens,
// esc or ctrl+c leaves. Chosen says what was picked once the program ends.
type Picker struct {
	all      []recordings.Entry
	shown    []int // indexes into all, best match first
	filter   string
	cursor   int
	chosen   string
	styles   look.Styles
	w, h     int
	dir      string
	quitting bool
}

// NewPicker lists entries, found in dir.
func NewPicker(dir string, entries []recordings.Entry) *Picker {
	p := &Picker{all: entries, dir: dir, styles: look.NewStyles(true), w: 80, h: 24}
	p.refilter()
	return p
}

// Chosen is the path picked, or "" when the user left.
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
			p.quitting = true
			return p, tea.Quit
		case "enter":
			if len(p.shown) > 0 {
				p.chosen = p.all[p.shown[p.cursor]].Path
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
		if score, ok := fuzzy.Score(p.filter, e.Header.Target+" "+e.Path); ok {
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
		st.TitleFocused.Render(fmt.Sprintf("Recordings in %s", termtext.Line(p.dir))),
		st.Ink.Muted.Paint("type to filter · ↑/↓ choose · enter open · esc leave"),
		"> " + termtext.Line(p.filter),
		st.ColumnHeader.Render(fmt.Sprintf("%-19s %9s %9s  %-9s  %-10s %s", "started", "frames", "size", "", "transport", "target")),
	}
	room := max(p.h-len(lines), 1)
	top := max(0, p.cursor-room+1)
	for n, i := range p.shown[top:min(len(p.shown), top+room)] {
		text := look.FitLine(termtext.Line(row(p.all[i])), p.w)
		if top+n == p.cursor {
			text = st.Ink.SelFocused.Paint(text)
		}
		lines = append(lines, text)
	}
	if len(p.shown) == 0 {
		lines = append(lines, st.Ink.Muted.Paint("no recording matches "+termtext.Line(p.filter)))
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	return v
}
