package prompts

import (
	"encoding/json"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// maxTextChars bounds what a text or number input holds.
const maxTextChars = 64 << 10

// textWidget answers a text prompt with the text typed.
type textWidget struct {
	*base
	in    textinput.Model
	rules textRules
}

func newText(b *base) *textWidget {
	rules, note := newTextRules(b.prompt.Validation)
	if note != "" {
		b.notes = append(b.notes, note)
	}
	w := &textWidget{base: b, rules: rules, in: newInput(b, b.prompt.Placeholder)}
	var def string
	if json.Unmarshal(b.prompt.DefaultValue, &def) == nil {
		w.in.SetValue(def)
		w.in.CursorEnd()
	}
	return w
}

// newInput is the focused one-line input of text and number prompts.
func newInput(b *base, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = "> "
	in.Placeholder = termtext.LineMax(placeholder, maxLabel)
	in.CharLimit = maxTextChars
	in.SetStyles(b.styles.Input)
	in.Focus()
	return in
}

// inputLine draws a one-line input in w cells with the current styles.
func inputLine(b *base, in *textinput.Model, w int) []string {
	in.SetStyles(b.styles.Input)
	in.SetWidth(max(1, w-lipgloss.Width(in.Prompt)-1))
	return []string{in.View()}
}

// Update handles one message: typing edits the text, enter answers, esc
// cancels.
func (w *textWidget) Update(msg tea.Msg) (Action, tea.Cmd) { return w.update(w, msg) }

func (w *textWidget) edit(msg tea.Msg) (bool, tea.Cmd) {
	before := w.in.Value()
	var cmd tea.Cmd
	w.in, cmd = w.in.Update(msg)
	return w.in.Value() != before, cmd
}

// Value is the text as a JSON string.
func (w *textWidget) Value() (json.RawMessage, error) { return jsonString(w.in.Value()), nil }

// Validate checks required, the length (min/max) and the pattern.
func (w *textWidget) Validate() error { return w.rules.check(w.in.Value()) }

// Render draws the question, the rules, the input and the messages.
func (w *textWidget) Render(width, h int) string {
	return w.frame(width, h, w.rules.describe(), func(cw, _ int) []string { return inputLine(w.base, &w.in, cw) })
}

// KeyMap returns the keys of a text prompt.
func (w *textWidget) KeyMap() help.KeyMap { return typedKeys(w.keys.Submit, w.keys.Cancel) }
