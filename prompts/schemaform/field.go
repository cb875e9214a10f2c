package schemaform

import (
	"encoding/json"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// field is the editable widget of one leaf node.
type field interface {
	focus() tea.Cmd
	blur()
	// update handles a message the form did not take for itself.
	update(msg tea.Msg, keys KeyMap) tea.Cmd
	// view draws the widget in width cells.
	view(st *Styles, focused bool, width int) string
	// value is the JSON the field holds, nil when it is empty (left out of
	// the object). With lenient, text that does not parse is kept as a
	// JSON string instead of failing.
	value(lenient bool) (json.RawMessage, error)
	// set shows a JSON value; nil empties the field.
	set(raw json.RawMessage)
}

// newField makes the widget of a leaf node.
func newField(n *node, st *Styles) field {
	switch n.kind {
	case kindBool:
		return &boolField{state: -1}
	case kindChoice, kindMulti:
		return &choiceField{n: n, sel: make([]bool, len(n.options))}
	case kindText:
		if n.format == "date" || n.format == "date-time" {
			return newDateField(n)
		}
	}
	in := textinput.New()
	in.Prompt = "> "
	in.CharLimit = maxEditorChars
	in.Placeholder = placeholder(n)
	in.SetStyles(st.Input)
	return &textField{n: n, in: in}
}

// placeholder is the grey text of an empty text field.
func placeholder(n *node) string {
	switch n.kind {
	case kindList:
		return "comma-separated, or a [JSON array]"
	case kindJSON:
		return "JSON value or text"
	}
	switch n.format {
	case "date":
		return "YYYY-MM-DD"
	case "date-time":
		return "YYYY-MM-DDThh:mm:ssZ"
	case "time":
		return "hh:mm:ss"
	case "email", "idn-email":
		return "e.g. ada@example.com"
	case "uri", "url", "iri", "uri-reference":
		return "e.g. https://example.com"
	}
	return ""
}

// textField is typed text: strings, numbers, integers, lists and free JSON.
type textField struct {
	n  *node
	in textinput.Model
}

func (f *textField) focus() tea.Cmd { return f.in.Focus() }
func (f *textField) blur()          { f.in.Blur() }

func (f *textField) update(msg tea.Msg, _ KeyMap) tea.Cmd {
	var cmd tea.Cmd
	f.in, cmd = f.in.Update(msg)
	return cmd
}

func (f *textField) view(st *Styles, _ bool, width int) string {
	f.in.SetWidth(max(1, width-lipgloss.Width(f.in.Prompt)-1))
	return f.in.View()
}

func (f *textField) value(lenient bool) (json.RawMessage, error) {
	s := f.in.Value()
	if s == "" || (f.n.kind != kindText && isBlank(s)) {
		return nil, nil
	}
	var v json.RawMessage
	var err error
	if f.n.kind == kindList {
		v, err = parseList(s, f.n.itemKind)
	} else {
		v, err = parseScalar(s, f.n.kind)
	}
	if err != nil && lenient {
		return quote(s), nil
	}
	return v, err
}

func (f *textField) set(raw json.RawMessage) {
	if f.n.kind == kindList && raw != nil {
		f.in.SetValue(listText(raw, f.n.itemKind))
	} else {
		f.in.SetValue(textOf(raw, f.n.kind))
	}
	f.in.CursorEnd()
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' {
			return false
		}
	}
	return true
}

// boolField is a toggle with a third state, unset, in which it is left out.
type boolField struct {
	state int8 // -1 unset, 0 false, 1 true
}

func (f *boolField) focus() tea.Cmd { return nil }
func (f *boolField) blur()          {}

func (f *boolField) update(msg tea.Msg, keys KeyMap) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, keys.Toggle):
			f.state = 1 - max(f.state, 0)
		case key.Matches(k, keys.Clear):
			f.state = -1
		}
	}
	return nil
}

func (f *boolField) view(st *Styles, _ bool, _ int) string {
	switch f.state {
	case 1:
		return st.Selected.Render("[x] true")
	case 0:
		return "[ ] false"
	}
	return st.Hint.Render("[ ] not set")
}

func (f *boolField) value(bool) (json.RawMessage, error) {
	switch f.state {
	case 1:
		return json.RawMessage("true"), nil
	case 0:
		return json.RawMessage("false"), nil
	}
	return nil, nil
}

func (f *boolField) set(raw json.RawMessage) {
	f.state = -1
	switch canonical(raw) {
	case "true":
		f.state = 1
	case "false":
		f.state = 0
	}
}
