// Package findingsview is the Findings view: every departure from the spec or the seeds that mcpscope detected, as Wireshark's Expert Info shows them: severity, summary, the frame and the bytes it concerns.
package findingsview

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// View is the screen of the book: the findings grouped by severity, the
// worst first, then by code, each group a heading with its count that
// enter folds, each finding a line with its frame; enter on a finding
// shows its frame in the traffic and its bytes in the hex pane.
type View struct {
	h       screen.Host
	b       *Book
	keys    viewKeys
	rows    []row
	version int             // the book's version rows were built from
	folded  map[string]bool // groups folded, by severity and code
	sel     int             // the selected row
	top     int             // the first row shown
	w, ht   int
}

// viewKeys are the view's own keys.
type viewKeys struct {
	Open, Close key.Binding
}

// Open returns the view of b.
func Open(h screen.Host, b *Book) *View {
	v := &View{h: h, b: b, folded: map[string]bool{}, version: -1, keys: viewKeys{
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "show frame / fold")),
		Close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}}
	v.refresh()
	return v
}

// Title is the view's title line.
func (v *View) Title() string { return "Findings" }

// SetSize gives the view its body size.
func (v *View) SetSize(w, h int) { v.w, v.ht = w, h }

// Update handles a key: the navigation keys move, enter shows a finding's
// frame or folds a group, esc closes the view.
func (v *View) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	v.refresh()
	switch {
	case key.Matches(k, v.keys.Close):
		return nil, true
	case key.Matches(k, v.keys.Open):
		return v.open(), false
	}
	if move, ok := nav.Of(k, v.h.Nav(), v.ht-1); ok {
		v.sel = move.Apply(v.sel, len(v.rows))
	}
	return nil, false
}

// open acts on the selected row: a heading folds or unfolds its group, a
// finding shows its frame.
func (v *View) open() tea.Cmd {
	if v.sel < 0 || v.sel >= len(v.rows) {
		return nil
	}
	r := v.rows[v.sel]
	if r.head {
		v.folded[r.group] = !v.folded[r.group]
		v.version = -1
		v.refresh()
		return nil
	}
	cmd, ok := screen.SelectFrame(v.h, r.f.Seq, r.f.Offset, r.f.Length)
	if !ok {
		v.h.Note("this screen cannot show frames")
	}
	return cmd
}

// Help lists the view's keys.
func (v *View) Help() help.KeyMap {
	n := v.h.Nav()
	return keyhelp.Map{
		Short:     []key.Binding{v.keys.Open, n.Up, n.Down, v.keys.Close},
		Essential: []key.Binding{v.keys.Close},
	}
}
