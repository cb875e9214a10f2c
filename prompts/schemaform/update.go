package schemaform

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Update handles one message: keys move between fields, edit the focused
// one, submit, cancel or switch to the JSON editor; other messages (cursor
// blink, paste) go to the focused widget.
func (f *Form) Update(msg tea.Msg) (Action, tea.Cmd) {
	if f.editor != nil {
		return f.updateEditor(msg)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if handled, cmd := f.updateSuggest(k); handled {
			return ActionNone, cmd
		}
		switch {
		case key.Matches(k, f.keys.Cancel):
			return ActionCancel, nil
		case key.Matches(k, f.keys.EditJSON):
			return f.openEditor()
		case key.Matches(k, f.keys.Submit):
			return f.submit()
		case key.Matches(k, f.keys.Next):
			return ActionNone, f.focusRow(f.nextField(f.focused, 1))
		case key.Matches(k, f.keys.Prev):
			return ActionNone, f.focusRow(f.nextField(f.focused, -1))
		case key.Matches(k, f.keys.Enter):
			if next := f.nextField(f.focused, 1); next > f.focused {
				return ActionNone, f.focusRow(next)
			}
			return f.submit()
		}
	}
	if f.focused < 0 {
		return ActionNone, nil
	}
	cmd := f.rows[f.focused].f.update(msg, f.keys)
	if f.shown {
		f.errs = f.Validate()
	}
	return ActionNone, cmd
}

// nextField returns the index of the field after (dir 1) or before (dir -1)
// row i, wrapping around; i itself when it is the only one, -1 with none.
func (f *Form) nextField(i, dir int) int {
	n := len(f.rows)
	for step := 1; step <= n; step++ {
		j := ((i+dir*step)%n + n) % n
		if f.rows[j].f != nil {
			return j
		}
	}
	return -1
}

// focusRow moves the focus to row i.
func (f *Form) focusRow(i int) tea.Cmd {
	f.suggest = nil
	if f.focused >= 0 {
		f.rows[f.focused].f.blur()
	}
	f.focused = i
	if i < 0 {
		return nil
	}
	return f.rows[i].f.focus()
}

// submit validates; with errors it shows them, focuses the first field
// concerned and stays, else it reports ActionSubmit.
func (f *Form) submit() (Action, tea.Cmd) {
	f.errs = f.Validate()
	f.shown = true
	if len(f.errs) == 0 {
		return ActionSubmit, nil
	}
	for _, e := range f.errs {
		if i := f.rowOf(e.Path); i >= 0 && f.rows[i].f != nil {
			return ActionNone, f.focusRow(i)
		}
	}
	return ActionNone, nil
}

// rowOf returns the row an error at path belongs to: the deepest row whose
// path is path or one of its ancestors; -1 for the form as a whole.
func (f *Form) rowOf(path string) int {
	best, bestLen := -1, -1
	for i, r := range f.rows {
		if within(path, r.n.path) && len(r.n.path) > bestLen {
			best, bestLen = i, len(r.n.path)
		}
	}
	return best
}

// EditJSON opens the JSON editor, as ctrl+e does: for arguments no schema
// describes, typed as JSON from the start. It returns the editor's focus
// command.
func (f *Form) EditJSON() tea.Cmd {
	if f.editor != nil {
		return nil
	}
	_, cmd := f.openEditor()
	return cmd
}

// openEditor switches to the JSON editor, seeded with the value so far
// (text that does not parse is kept as strings).
func (f *Form) openEditor() (Action, tea.Cmd) {
	v, _ := f.build(true)
	f.editor = newEditor(f.check, v, &f.styles)
	f.editor.SetSize(f.w, f.h)
	return ActionEditJSON, f.editor.ta.Focus()
}

// updateEditor handles a message while the JSON editor is open; ctrl+e
// returns to the form when the JSON fits it.
func (f *Form) updateEditor(msg tea.Msg) (Action, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && f.root != nil && key.Matches(k, f.keys.EditJSON) {
		if err := f.closeEditor(); err != nil {
			f.editor.note = err.Error()
			return ActionNone, nil
		}
		return ActionNone, f.focusRow(f.focused)
	}
	return f.editor.Update(msg)
}

// closeEditor loads the editor's JSON into the fields and returns to the
// form; it refuses JSON the form cannot show without losing something.
func (f *Form) closeEditor() error {
	v, err := f.editor.Value()
	if err != nil {
		return err
	}
	if _, ok := decodeObj(v); !ok {
		return errors.New("only a JSON object can go back to the form")
	}
	f.reset()
	f.prefill(f.root, v)
	if back, _ := f.build(true); canonical(back) != canonical(v) {
		return errors.New("the form cannot show this JSON as it is (a value of another type?); fix it here, or submit it with ctrl+s")
	}
	f.editor = nil
	if f.shown {
		f.errs = f.Validate()
	}
	return nil
}
