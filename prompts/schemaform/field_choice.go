package schemaform

import (
	"bytes"
	"encoding/json"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/textfit"
)

// choiceField picks one option (kindChoice) or any subset (kindMulti).
type choiceField struct {
	n      *node
	cursor int
	sel    []bool
}

func (f *choiceField) multi() bool { return f.n.kind == kindMulti }

func (f *choiceField) focus() tea.Cmd { return nil }
func (f *choiceField) blur()          {}

func (f *choiceField) update(msg tea.Msg, keys KeyMap) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || len(f.sel) == 0 {
		return nil
	}
	switch {
	case key.Matches(k, keys.Choose):
		if k.String() == "left" {
			f.cursor = (f.cursor + len(f.sel) - 1) % len(f.sel)
		} else {
			f.cursor = (f.cursor + 1) % len(f.sel)
		}
	case key.Matches(k, keys.Toggle):
		on := !f.sel[f.cursor]
		if !f.multi() {
			clear(f.sel)
		}
		f.sel[f.cursor] = on
	case key.Matches(k, keys.Clear):
		clear(f.sel)
	}
	return nil
}

func (f *choiceField) view(st *Styles, focused bool, width int) string {
	items := make([]string, len(f.n.options))
	for i, o := range f.n.options {
		mark, on := "( ) ", "(•) "
		if f.multi() {
			mark, on = "[ ] ", "[x] "
		}
		style := st.Option
		if f.sel[i] {
			mark, style = on, st.Selected
		}
		label := shown(o.label)
		if focused && i == f.cursor {
			label = st.Cursor.Render(label)
		}
		items[i] = style.Render(mark) + label
	}
	return textfit.Flow(items, width)
}

func (f *choiceField) value(bool) (json.RawMessage, error) {
	var b bytes.Buffer
	n := 0
	for i, on := range f.sel {
		if !on {
			continue
		}
		if !f.multi() {
			return f.n.options[i].value, nil
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(f.n.options[i].value)
		n++
	}
	if !f.multi() || (n == 0 && !f.n.required) {
		return nil, nil
	}
	return append(append([]byte{'['}, b.Bytes()...), ']'), nil
}

func (f *choiceField) set(raw json.RawMessage) {
	clear(f.sel)
	want := []json.RawMessage{raw}
	if f.multi() && json.Unmarshal(raw, &want) != nil {
		want = nil
	}
	for _, w := range want {
		for i, o := range f.n.options {
			if raw != nil && canonical(o.value) == canonical(w) {
				f.sel[i] = true
				f.cursor = i
				break
			}
		}
	}
}
