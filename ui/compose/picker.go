package compose

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/fuzzy"
	"github.com/mcpscope/mcpscope/ui/look"
)

// maxMethodName bounds the method name typed in the picker.
const maxMethodName = 256

// pickerTab is a list of the method picker.
type pickerTab int

// The picker's lists: the known methods, and the calls sent in this run.
const (
	tabMethods pickerTab = iota
	tabHistory
)

// pickerRow is one row of the picker: the call it starts and what it says
// beside the method.
type pickerRow struct {
	call composeCall
	desc string
}

// methodPicker is the first step of the composer: a filter input over the
// known methods of the dialect (fuzzy, best match first, the typed text
// itself offered first as a custom method) or over the calls sent before.
type methodPicker struct {
	input   textinput.Model
	methods []composeMethod
	history *History
	tab     pickerTab
	rows    []pickerRow
	sel     int
	offset  int
	st      *look.Styles
}

// newMethodPicker returns a picker over methods and history.
func newMethodPicker(methods []composeMethod, history *History, st *look.Styles) *methodPicker {
	in := textinput.New()
	in.Prompt = ": "
	in.Placeholder = "type to filter, or any method name to send it as is"
	in.CharLimit = maxMethodName
	in.SetStyles(st.Input)
	p := &methodPicker{input: in, methods: methods, history: history, st: st}
	p.refresh()
	return p
}

// focus gives the filter input the cursor.
func (p *methodPicker) focus() tea.Cmd { return p.input.Focus() }

// refresh rebuilds the rows of the current tab for the filter text.
func (p *methodPicker) refresh() {
	text := strings.TrimSpace(p.input.Value())
	if p.tab == tabHistory {
		p.rows = p.rows[:0]
		for _, c := range p.history.calls {
			if _, ok := fuzzy.Score(text, c.method); ok {
				p.rows = append(p.rows, pickerRow{call: c, desc: look.OneLine(string(c.params))})
			}
		}
	} else {
		p.rows = p.methodRows(text)
	}
	p.sel = min(p.sel, max(len(p.rows)-1, 0))
}

// methodRows are the methods matching text, best first, after the typed
// text itself when it names no known method.
func (p *methodPicker) methodRows(text string) []pickerRow {
	type scored struct {
		m     composeMethod
		score int
	}
	var hits []scored
	for _, m := range p.methods {
		if s, ok := fuzzy.Score(text, m.name); ok {
			hits = append(hits, scored{m, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	rows := make([]pickerRow, 0, len(hits)+1)
	if _, known := lookupMethod(p.methods, text); text != "" && !known {
		c := customMethod(text)
		rows = append(rows, pickerRow{call: composeCall{method: c.name, notify: c.notify}, desc: c.desc})
	}
	for _, h := range hits {
		rows = append(rows, pickerRow{call: composeCall{method: h.m.name, notify: h.m.notify}, desc: h.m.desc})
	}
	return rows
}

// selected is the row under the cursor.
func (p *methodPicker) selected() (pickerRow, bool) {
	if p.sel < 0 || p.sel >= len(p.rows) {
		return pickerRow{}, false
	}
	return p.rows[p.sel], true
}

// update handles a key the composer does not: moving in the list,
// switching lists, and editing the filter.
func (p *methodPicker) update(msg tea.Msg, k composeKeys, page int) tea.Cmd {
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(kp, k.Up):
			p.sel = max(p.sel-1, 0)
			return nil
		case key.Matches(kp, k.Down):
			p.sel = min(p.sel+1, max(len(p.rows)-1, 0))
			return nil
		case key.Matches(kp, k.PageUp):
			p.sel = max(p.sel-max(page, 1), 0)
			return nil
		case key.Matches(kp, k.PageDown):
			p.sel = min(p.sel+max(page, 1), max(len(p.rows)-1, 0))
			return nil
		case key.Matches(kp, k.Tab):
			p.tab = 1 - p.tab
			p.sel, p.offset = 0, 0
			p.refresh()
			return nil
		}
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		p.sel, p.offset = 0, 0
		p.refresh()
	}
	return cmd
}

// Render draws the tabs, the filter input and the rows in w×h.
func (p *methodPicker) Render(w, h int) string {
	tabs := []string{"Methods", fmt.Sprintf("History (%d)", len(p.history.calls))}
	var b strings.Builder
	for i, t := range tabs {
		if pickerTab(i) == p.tab {
			b.WriteString(p.st.TabActive.Render(" " + t + " "))
		} else {
			b.WriteString(p.st.Tab.Render(" " + t + " "))
		}
	}
	b.WriteString(p.st.Ink.Muted.Paint("  tab: switch"))
	p.input.SetWidth(max(w-4, 1))
	lines := []string{b.String(), p.input.View()}
	nameW := 16
	for _, r := range p.rows {
		nameW = max(nameW, look.TextWidth(r.call.method))
	}
	nameW = min(nameW, max(w/2, 8))
	lines = append(lines, p.st.ColumnHeader.Render(look.Cell("  "+look.Cell("method", nameW)+" "+look.Cell("kind", 12)+" "+"params / description", w)))
	rows := max(h-len(lines), 0)
	if len(p.rows) == 0 {
		empty := "no calls were sent yet"
		if p.tab == tabMethods {
			empty = "no method matches"
		}
		return strings.Join(append(lines, p.st.Ink.Muted.Paint(empty)), "\n")
	}
	p.offset = min(max(p.offset, p.sel-rows+1), p.sel)
	p.offset = max(p.offset, 0)
	for i := p.offset; i < min(p.offset+rows, len(p.rows)); i++ {
		r := p.rows[i]
		mark := "  "
		if i == p.sel {
			mark = "▸ "
		}
		text := look.Cell(mark+look.Cell(r.call.method, nameW)+" "+look.Cell(r.call.kind(), 12)+" "+r.desc, w)
		switch {
		case i == p.sel:
			text = p.st.Ink.SelFocused.Paint(text)
		case r.call.notify:
			text = p.st.Ink.Muted.Paint(text)
		}
		lines = append(lines, text)
	}
	return strings.Join(lines, "\n")
}
