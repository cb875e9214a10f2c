package prompts

import (
	"bytes"
	"encoding/json"
	"errors"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// maxChoices bounds the options a choice prompt shows.
const maxChoices = 1024

// maxLabel bounds, in bytes, the one-line server text a widget shows (an
// option's label or description, a placeholder): more than a line holds.
const maxLabel = 1 << 10

// choiceWidget answers a choice prompt: the option under the cursor, or
// with Multiple every option selected with space, as an array.
type choiceWidget struct {
	*base
	cursor int
	sel    []bool // Multiple only
	offset int    // first option drawn
}

func newChoice(b *base) (*choiceWidget, error) {
	n := len(b.prompt.Choices)
	if n == 0 {
		return nil, errors.New("the choice prompt has no choices")
	}
	if n > maxChoices {
		b.notes = append(b.notes, "Only the first 1024 choices are shown.")
		b.prompt.Choices = b.prompt.Choices[:maxChoices]
		n = maxChoices
	}
	w := &choiceWidget{base: b, sel: make([]bool, n)}
	w.setDefault(b.prompt.DefaultValue)
	return w, nil
}

// setDefault puts the cursor on the default (and selects the defaults of
// a multi-select: an array, or a single value).
func (w *choiceWidget) setDefault(def json.RawMessage) {
	if len(bytes.TrimSpace(def)) == 0 {
		return
	}
	want := []json.RawMessage{def}
	if w.prompt.Multiple {
		var arr []json.RawMessage
		if json.Unmarshal(def, &arr) == nil {
			want = arr
		}
	}
	first := true
	for _, v := range want {
		for i, c := range w.prompt.Choices {
			if sameJSON(c.Value, v) {
				w.sel[i] = w.prompt.Multiple
				if first {
					w.cursor, first = i, false
				}
				break
			}
		}
	}
}

// Update handles one message: ↑/↓ move, space selects (multi-select),
// enter answers, esc cancels.
func (w *choiceWidget) Update(msg tea.Msg) (Action, tea.Cmd) { return w.update(w, msg) }

func (w *choiceWidget) edit(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil
	}
	n := len(w.sel)
	switch {
	case key.Matches(k, w.keys.Up):
		w.cursor = (w.cursor + n - 1) % n
		return !w.prompt.Multiple, nil
	case key.Matches(k, w.keys.Down):
		w.cursor = (w.cursor + 1) % n
		return !w.prompt.Multiple, nil
	case w.prompt.Multiple && key.Matches(k, w.keys.Toggle):
		w.sel[w.cursor] = !w.sel[w.cursor]
		return true, nil
	}
	return false, nil
}

// Value is the value of the option under the cursor, or for a
// multi-select the array of the values selected, in the prompt's order.
func (w *choiceWidget) Value() (json.RawMessage, error) {
	if !w.prompt.Multiple {
		return compactJSON(w.prompt.Choices[w.cursor].Value), nil
	}
	vals := []json.RawMessage{}
	for i, on := range w.sel {
		if on {
			vals = append(vals, compactJSON(w.prompt.Choices[i].Value))
		}
	}
	return json.Marshal(vals)
}

// Validate asks a required multi-select for one option at least.
func (w *choiceWidget) Validate() error {
	if w.prompt.Multiple && w.required() && !containsTrue(w.sel) {
		return errors.New("choose at least one option (space selects)")
	}
	return nil
}

func containsTrue(b []bool) bool {
	for _, v := range b {
		if v {
			return true
		}
	}
	return false
}

// Render draws the options, scrolled to keep the cursor in view.
func (w *choiceWidget) Render(width, h int) string {
	rules := ""
	if w.prompt.Multiple {
		rules = "several answers: space selects"
		if w.required() {
			rules = "required · " + rules
		}
	}
	return w.frame(width, h, rules, w.options)
}

// options draws the window of options that fits in avail lines.
func (w *choiceWidget) options(_ int, avail int) []string {
	avail = max(avail, 1)
	switch {
	case w.cursor < w.offset:
		w.offset = w.cursor
	case w.cursor >= w.offset+avail:
		w.offset = w.cursor - avail + 1
	}
	w.offset = max(0, min(w.offset, len(w.sel)-avail))
	st := &w.styles
	var lines []string
	for i := w.offset; i < min(len(w.sel), w.offset+avail); i++ {
		c := w.prompt.Choices[i]
		mark, onMark, on := "( ) ", "(•) ", i == w.cursor
		if w.prompt.Multiple {
			mark, onMark, on = "[ ] ", "[x] ", w.sel[i]
		}
		style := st.Option
		if on {
			mark, style = onMark, st.Selected
		}
		label := c.Label
		if label == "" {
			label = display(c.Value)
		}
		label = termtext.LineMax(label, maxLabel)
		pointer := "  "
		if i == w.cursor {
			pointer, label = st.Selected.Render("› "), st.Cursor.Render(label)
		}
		line := pointer + style.Render(mark) + label
		if c.Description != "" {
			line += st.Description.Render(" — " + termtext.LineMax(c.Description, maxLabel))
		}
		lines = append(lines, line)
	}
	return lines
}

// KeyMap returns the keys of a choice prompt.
func (w *choiceWidget) KeyMap() help.KeyMap {
	up, down := keyhelp.Relabel(w.keys.Up, "previous"), keyhelp.Relabel(w.keys.Down, "next")
	h := keyhelp.Map{Short: []key.Binding{up, down}, Essential: []key.Binding{up, down, w.keys.Submit, w.keys.Cancel}}
	if w.prompt.Multiple {
		h.Short = append(h.Short, w.keys.Toggle)
		h.Essential = append(h.Essential, w.keys.Toggle)
	}
	h.Short = append(h.Short, w.keys.Submit, w.keys.Cancel)
	return h
}
