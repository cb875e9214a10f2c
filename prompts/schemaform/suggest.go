package schemaform

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/textfit"
)

// maxSuggestionRows is how many suggestions the list under a field shows
// at once; the list scrolls with the choice.
const maxSuggestionRows = 6

// Suggestions are values proposed for a text field, handed in by the
// form's caller (the explorer asks completion/complete): the form shows
// them in a list under the field and puts the one taken into it.
type Suggestions struct {
	// Values are the proposed values, as the server sent them: the form
	// makes them safe to show.
	Values []string
	// More says what the list does not hold ("3 of 40", "more on the
	// server"); "" when it holds everything.
	More string
	// Err, when set, is shown as one line under the field instead of a
	// list: why there are no suggestions (a failed request).
	Err string
	// Note, when set, is one line of advice under the field instead of a
	// list.
	Note string
}

// suggestList is the list open under the focused field.
type suggestList struct {
	row  int    // the row of the field it belongs to
	text string // the field's text the values were asked for
	Suggestions
	sel    int // the value the choice is on
	offset int // the first value drawn
}

// FocusedText returns the name and the text of the focused field when it
// is a text field at the top of the form (a prompt argument, a template
// variable); ok is false for any other focus.
func (f *Form) FocusedText() (name, text string, ok bool) {
	if f.editor != nil || f.focused < 0 {
		return "", "", false
	}
	r := f.rows[f.focused]
	t, isText := r.f.(*textField)
	if !isText || r.depth != 0 || r.n.kind != kindText {
		return "", "", false
	}
	return r.n.name, t.in.Value(), true
}

// Suggest shows s under the field called name, provided it is still the
// focused one and still holds text: an answer for an older text is stale
// and dropped (false). A list whose only value is the text itself, or
// that is empty with nothing to say, stays closed.
func (f *Form) Suggest(name, text string, s Suggestions) bool {
	focused, now, ok := f.FocusedText()
	if !ok || focused != name || now != text {
		return false
	}
	if s.Err == "" && s.Note == "" && s.More == "" && (len(s.Values) == 0 || len(s.Values) == 1 && s.Values[0] == text) {
		f.suggest = nil
		return true
	}
	f.suggest = &suggestList{row: f.focused, text: text, Suggestions: s}
	return true
}

// SuggestionsOpen reports whether a list of suggestions (or its one line
// of error or note) is shown under the focused field. A list or an error
// stays only while the field holds the text it was asked for; a note stays
// until the focus moves.
func (f *Form) SuggestionsOpen() bool {
	s := f.suggest
	if s == nil || s.row != f.focused {
		return false
	}
	_, text, _ := f.FocusedText()
	return s.Note != "" || text == s.text
}

// CloseSuggestions closes the list under the focused field.
func (f *Form) CloseSuggestions() { f.suggest = nil }

// updateSuggest handles a key while the list is open: the arrows move
// the choice, enter or tab takes it, esc closes the list. handled is false
// for every other key, which then edits the field as usual.
func (f *Form) updateSuggest(k tea.KeyPressMsg) (handled bool, cmd tea.Cmd) {
	s := f.suggest
	if !f.SuggestionsOpen() {
		f.suggest = nil
		return false, nil
	}
	switch {
	case key.Matches(k, f.keys.SuggestClose):
		f.suggest = nil
		return true, nil
	case len(s.Values) == 0:
		return false, nil
	case key.Matches(k, f.keys.SuggestDown):
		s.sel = (s.sel + 1) % len(s.Values)
	case key.Matches(k, f.keys.SuggestUp):
		s.sel = (s.sel + len(s.Values) - 1) % len(s.Values)
	case key.Matches(k, f.keys.SuggestTake):
		if t, ok := f.rows[f.focused].f.(*textField); ok {
			t.in.SetValue(s.Values[s.sel])
			t.in.CursorEnd()
		}
		f.suggest = nil
		if f.shown {
			f.errs = f.Validate()
		}
	default:
		return false, nil
	}
	return true, nil
}

// suggestLines draws the open list in width cells: a window of values
// with the choice marked, then what the list does not hold; or the one
// line of its error.
func (f *Form) suggestLines(width int) []string {
	s, st := f.suggest, &f.styles
	switch {
	case s.Err != "":
		return []string{textfit.Clip(st.Error.Render("✗ "+shown(s.Err)), width)}
	case s.Note != "":
		return []string{textfit.Clip(st.Note.Render(shown(s.Note)), width)}
	}
	var lines []string
	n := len(s.Values)
	s.offset = max(0, min(s.offset, s.sel), s.sel-maxSuggestionRows+1)
	for i := s.offset; i < min(n, s.offset+maxSuggestionRows); i++ {
		v := shown(s.Values[i])
		if i == s.sel {
			lines = append(lines, textfit.Clip(st.Cursor.Render("▸ "+v), width))
		} else {
			lines = append(lines, textfit.Clip(st.Option.Render("  "+v), width))
		}
	}
	var more []string
	if hidden := n - len(lines); hidden > 0 {
		more = append(more, fmt.Sprintf("%d of %d shown, ↑/↓ to see them", len(lines), n))
	}
	if s.More != "" {
		more = append(more, shown(s.More))
	}
	if len(more) > 0 {
		lines = append(lines, textfit.Clip(st.Hint.Render("  "+strings.Join(more, "; ")), width))
	}
	return lines
}
