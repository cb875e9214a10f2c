package contentsave

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/media"
)

// Ask is an input line of its own that asks where to save an item, then,
// when a file is there, whether to replace it: for a screen that has no
// input line to lend.
type Ask struct {
	input   textinput.Model
	item    media.Item
	replace string // the path asked about, while asking whether to replace it
}

// NewAsk asks where to save it, item i of n, offering its FileName.
func NewAsk(it media.Item, i, n int) (*Ask, tea.Cmd) {
	a := &Ask{input: textinput.New(), item: it}
	a.input.Prompt = Prompt(it, i, n)
	a.input.SetValue(it.FileName(i))
	a.input.CursorEnd()
	return a, a.input.Focus()
}

// Update reads a key: enter answers (and starts the write, or asks
// whether to replace the file there), esc gives up; done says the line
// is closed.
func (a *Ask) Update(msg tea.KeyPressMsg) (cmd tea.Cmd, done bool) {
	switch msg.String() {
	case "esc":
		return nil, true
	case "enter":
		v := a.input.Value()
		switch {
		case a.replace != "" && Yes(v):
			return Write(a.item, a.replace, true), true
		case a.replace != "":
			return nil, true
		case v == "":
			return nil, true
		case media.Exists(v):
			a.replace = v
			a.input.Prompt, a.input.Placeholder = ReplacePrompt(v), ReplaceHint
			a.input.SetValue("")
			return nil, false
		}
		return Write(a.item, v, false), true
	}
	a.input, cmd = a.input.Update(msg)
	return cmd, false
}

// View draws the line w cells wide.
func (a *Ask) View(w int) string {
	a.input.SetWidth(max(w-len([]rune(a.input.Prompt))-1, 1))
	return a.input.View()
}

// SetStyles styles the line as the theme's inputs.
func (a *Ask) SetStyles(s textinput.Styles) { a.input.SetStyles(s) }
