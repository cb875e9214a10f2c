package prompts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// customWidget answers a custom prompt with JSON typed in the schema
// form's JSON editor, checked against the prompt's schema when it has one.
type customWidget struct {
	*base
	ed *schemaform.JSONEditor
}

func newCustom(b *base, opts Options) *customWidget {
	b.submitKey = b.keys.SubmitJSON // enter is a new line in the editor
	schema := bytes.TrimSpace(b.prompt.Schema)
	if len(schema) == 0 {
		schema = []byte("true")
	}
	ed, err := schemaform.NewJSONEditor(schema, b.prompt.DefaultValue)
	if err != nil {
		b.notes = append(b.notes, "The prompt's schema is not JSON; the answer is not checked here.")
		ed, _ = schemaform.NewJSONEditor([]byte("true"), b.prompt.DefaultValue)
	} else if err := ed.SchemaError(); err != nil {
		b.notes = append(b.notes, "Not checked here: "+err.Error())
	}
	ed.SetDark(opts.Dark)
	return &customWidget{base: b, ed: ed}
}

// Update handles one message: typing edits the JSON, ctrl+s answers, esc
// cancels.
func (w *customWidget) Update(msg tea.Msg) (Action, tea.Cmd) { return w.update(w, msg) }

func (w *customWidget) edit(msg tea.Msg) (bool, tea.Cmd) {
	if bg, ok := msg.(tea.BackgroundColorMsg); ok {
		w.ed.SetDark(bg.IsDark())
		return false, nil
	}
	_, cmd := w.ed.Update(msg)
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return true, cmd
	}
	return false, cmd
}

// Value is the JSON typed, compacted; the error says where the text stops
// being JSON.
func (w *customWidget) Value() (json.RawMessage, error) { return w.ed.Value() }

// Validate checks that the text is JSON that matches the schema; the
// error names the first problem by its JSON pointer and counts the rest.
func (w *customWidget) Validate() error {
	errs := w.ed.Validate()
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errors.New(errs[0].Error())
	}
	return fmt.Errorf("%s (and %d more)", strings.TrimSpace(errs[0].Error()), len(errs)-1)
}

// Render draws the question and the editor.
func (w *customWidget) Render(width, h int) string {
	rules := "JSON"
	if len(bytes.TrimSpace(w.prompt.Schema)) > 0 {
		rules = "JSON matching the prompt's schema"
	}
	return w.frame(width, h, rules, func(cw, avail int) []string {
		if avail < 1 {
			return nil
		}
		w.ed.SetSize(cw, avail)
		return strings.Split(w.ed.Render(cw, avail), "\n")
	})
}

// SetSize tells the widget the size it will be drawn at.
func (w *customWidget) SetSize(width, h int) {
	w.base.SetSize(width, h)
	w.ed.SetSize(width, h)
}

// KeyMap returns the keys of a custom prompt.
func (w *customWidget) KeyMap() help.KeyMap { return typedKeys(w.keys.SubmitJSON, w.keys.Cancel) }
