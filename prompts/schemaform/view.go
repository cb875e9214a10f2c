package schemaform

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/textfit"
)

// Render draws the form in w×h cells: a fixed header (title, errors about
// the whole object) and the fields below it, scrolled so that the focused
// field is in view. Each field shows its label (* when required) and hint,
// its widget, its description while focused, and its errors.
func (f *Form) Render(w, h int) string {
	if f.editor != nil {
		return f.editor.Render(w, h)
	}
	w, h = max(w, 10), max(h, 1)
	byRow, whole := f.errorsByRow()
	var head []string
	if f.title != "" {
		head = append(head, textfit.Clip(f.styles.Title.Render(shown(f.title)), w))
	}
	if err := f.check.err; err != nil {
		head = append(head, textfit.Clip(f.styles.Note.Render("not validated here: "+shown(err.Error())), w))
	}
	for _, msg := range whole {
		head = append(head, textfit.Wrap(f.styles.Error, "✗ "+msg, w)...)
	}
	head = head[:min(len(head), max(h/2, 1))]
	var body []string
	if len(f.rows) == 0 {
		body = append(body, f.styles.Hint.Render("No arguments. ctrl+s sends {}."))
	}
	if ex := f.extras[f.root]; len(ex) > 0 {
		body = append(body, f.extrasLine(ex, "", w))
	}
	start, end := 0, 0
	for i, r := range f.rows {
		if i == f.focused {
			start = len(body)
		}
		body = append(body, f.rowLines(i, r, byRow[i], w)...)
		if i == f.focused {
			end = len(body)
		}
	}
	body = f.scroll(body, start, end, h-len(head))
	return strings.Join(append(head, body...), "\n")
}

// scroll keeps lines [start, end) of body in view within avail lines.
func (f *Form) scroll(body []string, start, end, avail int) []string {
	if avail <= 0 {
		return nil
	}
	if end-start > avail {
		end = start + avail
	}
	switch {
	case start < f.offset:
		f.offset = start
	case end > f.offset+avail:
		f.offset = end - avail
	}
	f.offset = max(0, min(f.offset, len(body)-avail))
	return body[f.offset:min(len(body), f.offset+avail)]
}

// rowLines draws one row: a field, or the header of a nested object.
func (f *Form) rowLines(i int, r row, errs []string, w int) []string {
	st := &f.styles
	indent := strings.Repeat("  ", r.depth)
	focused := i == f.focused
	marker, label := "  ", st.Label.Render(r.n.label())
	switch {
	case focused:
		marker, label = st.Focused.Render("› "), st.Focused.Render(r.n.label())
	case r.f == nil:
		label = st.Group.Render(r.n.label())
	}
	head := indent + marker + label
	if r.n.required {
		head += st.Required.Render(" *")
	}
	if r.n.hint != "" {
		head += "  " + st.Hint.Render(shown(r.n.hint))
	}
	lines := []string{textfit.Clip(head, w)}
	pad := indent + "    "
	inner := max(w-len(pad), 4)
	if r.f == nil {
		if ex := f.extras[r.n]; len(ex) > 0 {
			lines = append(lines, f.extrasLine(ex, indent+"  ", w))
		}
	} else {
		for _, l := range strings.Split(r.f.view(st, focused, inner), "\n") {
			lines = append(lines, textfit.Clip(pad+l, w))
		}
		if focused && f.SuggestionsOpen() {
			for _, l := range f.suggestLines(inner) {
				lines = append(lines, pad+l)
			}
		}
	}
	if focused || (r.f == nil && f.focused > i && within(f.rows[f.focused].n.path, r.n.path)) {
		for _, l := range textfit.Wrap(st.Description, r.n.desc, inner) {
			lines = append(lines, pad+l)
		}
	}
	for _, e := range errs {
		for _, l := range textfit.Wrap(st.Error, "✗ "+e, inner) {
			lines = append(lines, pad+l)
		}
	}
	return lines
}

// extrasLine mentions the keys a prefill had that no field shows.
func (f *Form) extrasLine(ex []member, indent string, w int) string {
	keys := make([]string, len(ex))
	for i, m := range ex {
		keys[i] = m.Key
	}
	text := fmt.Sprintf("+ kept from the given values: %s (ctrl+e to edit)", shown(strings.Join(keys, ", ")))
	return textfit.Clip(indent+f.styles.Hint.Render(text), w)
}

// errorsByRow sorts the shown errors by the row they belong to; errors
// that belong to no row concern the whole object.
func (f *Form) errorsByRow() (map[int][]string, []string) {
	byRow := map[int][]string{}
	var whole []string
	for _, e := range f.errs {
		i := f.rowOf(e.Path)
		switch {
		case i < 0:
			whole = append(whole, e.Error())
		case f.rows[i].n.path != e.Path:
			byRow[i] = append(byRow[i], e.Path[len(f.rows[i].n.path):]+": "+e.Message)
		default:
			byRow[i] = append(byRow[i], e.Message)
		}
	}
	return byRow, whole
}
