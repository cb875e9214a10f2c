package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/textfit"
)

// maxEditorChars bounds the text of the JSON editor.
const maxEditorChars = 1 << 20

// JSONEditor edits a value as JSON text, validated against a schema on
// submit; errors are listed under the text with their JSON pointer. It is
// the fallback for schemas a Form cannot express, and usable on its own.
type JSONEditor struct {
	ta     textarea.Model
	check  *validator
	errs   []FieldError // shown after a refused submit
	shown  bool         // errors are on screen and follow each edit
	banner string       // a standing notice above the text
	note   string       // a notice until the next key
	keys   KeyMap
	styles *Styles
	w, h   int
}

// NewJSONEditor opens an editor on initial (pretty-printed when it is
// JSON; {} when empty) that validates against schema. The error is for a
// schema that is not JSON; a schema that does not compile leaves values
// unchecked (SchemaError).
func NewJSONEditor(schema, initial json.RawMessage) (*JSONEditor, error) {
	if !json.Valid(schema) {
		return nil, errors.New("the schema is not JSON")
	}
	st := DefaultStyles(true)
	return newEditor(compile(schema), initial, &st), nil
}

// newEditor opens an editor sharing a compiled schema and styles.
func newEditor(check *validator, initial json.RawMessage, st *Styles) *JSONEditor {
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.Prompt = ""
	ta.CharLimit = maxEditorChars
	ta.MaxHeight = 0
	ta.SetStyles(st.Editor)
	ta.SetValue(pretty(initial))
	ta.MoveToBegin()
	ta.Focus()
	return &JSONEditor{ta: ta, check: check, keys: DefaultKeyMap(), styles: st}
}

// pretty indents JSON with two spaces; other text is returned as it is.
func pretty(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// SetSize sets the size the editor is drawn at.
func (e *JSONEditor) SetSize(w, h int) { e.w, e.h = w, h }

// SetDark switches the styles between dark and light backgrounds.
func (e *JSONEditor) SetDark(dark bool) {
	st := DefaultStyles(dark)
	e.restyle(&st)
}

func (e *JSONEditor) restyle(st *Styles) {
	e.styles = st
	e.ta.SetStyles(st.Editor)
}

// SchemaError says why the schema could not be compiled for validation;
// nil when it compiled.
func (e *JSONEditor) SchemaError() error { return e.check.err }

// KeyMap returns the editor's keys for the help bar.
func (e *JSONEditor) KeyMap() help.KeyMap { return e.keys.editorHelp(false) }

// Update handles one message: ctrl+s validates and submits, esc cancels,
// everything else edits the text.
func (e *JSONEditor) Update(msg tea.Msg) (Action, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		e.note = ""
		switch {
		case key.Matches(k, e.keys.Cancel):
			return ActionCancel, nil
		case key.Matches(k, e.keys.Submit):
			e.errs, e.shown = e.Validate(), true
			if len(e.errs) == 0 {
				return ActionSubmit, nil
			}
			return ActionNone, nil
		}
	}
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	if e.shown {
		e.errs = e.Validate()
	}
	return ActionNone, cmd
}

// Value returns the text as compact JSON; the error says where the text
// stops being JSON (line and column).
func (e *JSONEditor) Value() (json.RawMessage, error) {
	text := e.ta.Value()
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("the JSON text is empty")
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := position(text, se.Offset-1)
			return nil, fmt.Errorf("the text is not JSON at line %d, column %d: %w", line, col, err)
		}
		return nil, fmt.Errorf("the text is not JSON: %w", err)
	}
	return json.RawMessage(compact(json.RawMessage(text))), nil
}

// position turns a byte offset into a 1-based line and column.
func position(text string, offset int64) (line, col int) {
	before := text[:min(max(int(offset), 0), len(text))]
	line = strings.Count(before, "\n") + 1
	return line, len([]rune(before[strings.LastIndexByte(before, '\n')+1:])) + 1
}

// Validate checks the text: that it is JSON, then against the schema.
func (e *JSONEditor) Validate() []FieldError {
	v, err := e.Value()
	if err != nil {
		return []FieldError{{Message: err.Error()}}
	}
	return e.check.check(v)
}

// Render draws the notices, the text and the errors in w×h cells.
func (e *JSONEditor) Render(w, h int) string {
	w, h = max(w, 10), max(h, 3)
	var top, bottom []string
	if e.banner != "" {
		top = append(top, textfit.Wrap(e.styles.Note, e.banner, w)...)
	}
	if e.note != "" {
		top = append(top, textfit.Wrap(e.styles.Error, e.note, w)...)
	}
	room := max(1, h/3)
	for i, fe := range e.errs {
		lines := textfit.Wrap(e.styles.Error, "✗ "+fe.Error(), w)
		if i == 0 && len(lines) > room {
			lines = lines[:room]
		}
		if len(bottom)+len(lines) > room {
			bottom = append(bottom, e.styles.Error.Render(fmt.Sprintf("✗ … %d more", len(e.errs)-i)))
			break
		}
		bottom = append(bottom, lines...)
	}
	e.ta.SetWidth(w)
	e.ta.SetHeight(max(1, h-len(top)-len(bottom)))
	lines := append(top, strings.Split(e.ta.View(), "\n")...)
	lines = append(lines, bottom...)
	return strings.Join(lines[:min(len(lines), h)], "\n")
}
