package schemaform

import (
	"encoding/json"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/app/textfit"
	"github.com/mcpscope/mcpscope/prompts/calendar"
)

// clock gives the moment a date field opens at (its calendar starts on
// that day); tests pin it.
var clock = time.Now

// Calendar returns the looks of a date picker drawn with these styles.
func (s Styles) Calendar() calendar.Styles {
	return calendar.Styles{
		Title:    s.Label.Bold(true),
		Weekday:  s.Hint,
		Day:      s.Option,
		Today:    s.Focused,
		Selected: s.Cursor,
		Hint:     s.Hint,
		Input:    s.Input,
	}
}

// dateKeys are the calendar keys inside a form, where up/down and tab
// already move between fields: shift+↑/↓ move by a week, and the parts of
// a date-time are reached by typing (T after the date, Z/+/- after the
// time) rather than with tab.
func dateKeys() *calendar.KeyMap {
	k := calendar.DefaultKeyMap()
	k.PrevWeek = key.NewBinding(key.WithKeys("shift+up"), key.WithHelp("shift+↑", "week before"))
	k.NextWeek = key.NewBinding(key.WithKeys("shift+down"), key.WithHelp("shift+↓", "week after"))
	k.PrevPart, k.NextPart = key.NewBinding(), key.NewBinding()
	return &k
}

// dateField is a string with format date or date-time: typed text and a
// calendar, shown while the field has the focus.
type dateField struct {
	p *calendar.Picker
}

func newDateField(n *node) *dateField {
	return &dateField{p: calendar.New(calendar.Options{
		WithTime: n.format == "date-time",
		Now:      clock(),
		Keys:     dateKeys(),
		Start:    calendar.DayOf(n.earliest), // not a day the schema refuses
	})}
}

func (f *dateField) focus() tea.Cmd { return f.p.Focus() }
func (f *dateField) blur()          { f.p.Blur() }

func (f *dateField) update(msg tea.Msg, _ KeyMap) tea.Cmd {
	_, cmd := f.p.Update(msg)
	return cmd
}

// view draws the text and, while focused, the month and the calendar keys.
func (f *dateField) view(st *Styles, focused bool, width int) string {
	out := f.p.View(st.Calendar(), width, focused)
	if !focused {
		return out
	}
	var hints []string
	for _, b := range f.p.Keys().Help(false) {
		hints = append(hints, b.Help().Key+" "+b.Help().Desc)
	}
	return out + "\n" + textfit.Clip(st.Hint.Render(strings.Join(hints, " · ")), width)
}

// value is the date or date-time typed; text that does not parse is an
// error (or, lenient, kept as a string).
func (f *dateField) value(lenient bool) (json.RawMessage, error) {
	if isBlank(f.p.Text()) {
		return nil, nil
	}
	v, err := f.p.Value()
	if err != nil {
		if lenient {
			return quote(f.p.Text()), nil
		}
		return nil, err
	}
	return quote(v), nil
}

func (f *dateField) set(raw json.RawMessage) {
	_ = f.p.SetValue(textOf(raw, kindText))
}
