package tasksview

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Keys are the view's own keys.
type Keys struct {
	Detail, Back, Frames, Close key.Binding
}

// DefaultKeys returns the view's keys.
func DefaultKeys() Keys {
	return Keys{
		Detail: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "detail")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Frames: key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "its frames")),
		Close:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// View is the screen of the book: the tasks, newest first, or one task's
// detail.
type View struct {
	h      screen.Host
	b      *Book
	keys   Keys
	sel    int  // index in the newest-first list
	detail bool // the selected task's detail is shown
	height int
	// now is the clock the ages are measured by (tests fix it).
	now func() time.Time
}

// Open returns the view of b.
func Open(h screen.Host, b *Book) *View {
	return &View{h: h, b: b, keys: DefaultKeys(), now: time.Now}
}

// SetClock sets the clock the ages are measured by.
func (v *View) SetClock(now func() time.Time) { v.now = now }

// Title is the view's title line.
func (v *View) Title() string {
	if n := v.b.Forgotten(); n > 0 {
		return fmt.Sprintf("Tasks (%d; %d older forgotten)", len(v.b.Tasks()), n)
	}
	return fmt.Sprintf("Tasks (%d)", len(v.b.Tasks()))
}

// SetSize gives the view its body size.
func (v *View) SetSize(_, h int) { v.height = h }

// selected returns the selected task, newest first, or nil.
func (v *View) selected() *Task {
	ts := v.b.Tasks()
	if len(ts) == 0 {
		return nil
	}
	v.sel = min(max(v.sel, 0), len(ts)-1)
	return ts[len(ts)-1-v.sel]
}

// Update handles a key: moves, enter (detail), l (the task's call in the
// traffic) and esc (back, then close).
func (v *View) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	if mv, ok := nav.Of(k, v.h.Nav(), max(1, v.height-1)); ok && !v.detail {
		v.sel = mv.Apply(v.sel, len(v.b.Tasks()))
		return nil, false
	}
	switch {
	case key.Matches(k, v.keys.Back) && v.detail:
		v.detail = false
	case key.Matches(k, v.keys.Close):
		return nil, true
	case key.Matches(k, v.keys.Detail):
		v.detail = v.selected() != nil
	case key.Matches(k, v.keys.Frames):
		t := v.selected()
		if t == nil {
			v.h.Note("no task is selected")
			return nil, false
		}
		return v.h.ShowFrames(t.Call), false
	}
	return nil, false
}

// Render draws the body.
func (v *View) Render(w, h int) string {
	if v.detail {
		if t := v.selected(); t != nil {
			return strings.Join(look.PadLines(v.detailLines(t, w), w, h), "\n")
		}
	}
	st := v.h.Styles()
	ts := v.b.Tasks()
	if len(ts) == 0 {
		lines := []string{st.Ink.Muted.Paint("No task yet: a tools/call the server answers with a task handle shows here.")}
		return strings.Join(look.PadLines(lines, w, h), "\n")
	}
	lines := []string{st.ColumnHeader.Render(look.FitLine(row("STATE", "AGE", "TASK", "CALL", "MESSAGE"), w))}
	first := 0
	if v.sel >= h-1 {
		first = v.sel - (h - 2)
	}
	for i := first; i < len(ts) && len(lines) < h; i++ {
		t := ts[len(ts)-1-i]
		line := look.FitLine(row(termtext.LineMax(string(t.Status), 40), look.Duration(v.now().Sub(t.Created).Truncate(100*time.Millisecond)),
			t.ID, "#"+t.Call.String()+" "+t.Tool, t.Message), w)
		switch {
		case i == v.sel:
			line = st.Ink.SelFocused.Paint(line)
		case t.Status == "failed":
			line = st.Ink.Error.Paint(line)
		}
		lines = append(lines, line)
	}
	return strings.Join(look.PadLines(lines, w, h), "\n")
}

// row lays out the columns of a row.
func row(state, age, id, call, msg string) string {
	return look.Cell(state, 15) + " " + look.CellRight(age, 7) + "  " + look.Cell(look.ElideMiddle(termtext.Line(id), 14), 14) +
		"  " + look.Cell(termtext.Line(call), 24) + "  " + look.OneLine(termtext.Line(msg))
}

// detailLines describe one task.
func (v *View) detailLines(t *Task, w int) []string {
	gen := "v2 (2026-07-28, SEP-2663)"
	if t.Gen == mcp.TasksV1 {
		gen = "v1 (2025-11-25)"
	}
	field := func(name, value string) string { return look.FitLine(look.Cell(name, 10)+" "+value, w) }
	lines := []string{
		field("task", termtext.Line(t.ID)),
		field("state", termtext.Line(string(t.Status))),
		field("message", look.OneLine(termtext.Line(t.Message))),
		field("call", fmt.Sprintf("tools/call %s (id %s)", termtext.Line(t.Tool), termtext.Line(t.Call.String()))),
		field("started", look.ClockTime(t.Created)+", "+look.Duration(v.now().Sub(t.Created).Truncate(100*time.Millisecond))+" ago"),
		field("updated", look.ClockTime(t.Updated)),
		field("updates", fmt.Sprintf("%d snapshots, %d frames linked", t.Updates, len(t.Seqs))),
		field("wire", gen),
	}
	if t.Error != "" {
		lines = append(lines, field("error", look.OneLine(termtext.Line(t.Error))))
	}
	return append(lines, "", v.h.Styles().Ink.Muted.Paint(look.FitLine("l shows the frames of its call in the traffic; esc returns to the list", w)))
}

// Help lists the view's keys.
func (v *View) Help() help.KeyMap {
	n := v.h.Nav()
	closeKey := v.keys.Close
	if v.detail {
		closeKey = v.keys.Back
	}
	short := []key.Binding{v.keys.Detail, v.keys.Frames, n.Up, n.Down, closeKey}
	return keyhelp.Map{Short: short, Essential: []key.Binding{closeKey}}
}
