package prompts

import (
	"encoding/json"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpscope/mcpscope/prompts/calendar"
)

// dateWidget answers a date prompt: a full-date (YYYY-MM-DD), or with
// Format "date-time" an RFC 3339 date-time, typed or picked on a calendar.
type dateWidget struct {
	*base
	p *calendar.Picker
}

func newDate(b *base, opts Options) *dateWidget {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	keys := b.keys.Calendar
	p := calendar.New(calendar.Options{WithTime: b.prompt.Format == "date-time", Now: now(), Keys: &keys,
		Start: calendar.DayOf(b.prompt.Placeholder)}) // the server's example: a day it takes
	var def string
	if json.Unmarshal(b.prompt.DefaultValue, &def) == nil {
		_ = p.SetValue(strings.TrimSpace(def))
	}
	p.Focus()
	return &dateWidget{base: b, p: p}
}

// Update handles one message: typing edits the date, ←/→ move a day, ↑/↓
// a week, pgup/pgdown a month, tab moves between the parts of a
// date-time, enter answers, esc cancels.
func (w *dateWidget) Update(msg tea.Msg) (Action, tea.Cmd) { return w.update(w, msg) }

func (w *dateWidget) edit(msg tea.Msg) (bool, tea.Cmd) { return w.p.Update(msg) }

// Value is the date or date-time as a JSON string; null when nothing is
// typed.
func (w *dateWidget) Value() (json.RawMessage, error) {
	v, err := w.p.Value()
	switch {
	case err != nil:
		return nil, err
	case v == "":
		return json.RawMessage("null"), nil
	}
	return jsonString(v), nil
}

// Validate checks required and that the text is a date (or a date-time).
func (w *dateWidget) Validate() error {
	if w.p.Empty() {
		if w.required() {
			return errRequired
		}
		return nil
	}
	_, err := w.p.Value()
	return err
}

// Render draws the question, the input and, when there is room, the
// month.
func (w *dateWidget) Render(width, h int) string {
	rules := "YYYY-MM-DD"
	if w.p.WithTime() {
		rules = "YYYY-MM-DD at HH:MM[:SS], then Z or ±HH:MM"
	}
	if w.required() {
		rules = "required · " + rules
	}
	return w.frame(width, h, rules, func(cw, avail int) []string {
		lines := splitLines(w.p.View(w.styles.Calendar, cw, false))
		withGrid := avail >= len(lines)+calendar.GridHeight
		return strings.Split(w.p.View(w.styles.Calendar, cw, withGrid), "\n")
	})
}

// KeyMap returns the keys of a date prompt.
func (w *dateWidget) KeyMap() help.KeyMap {
	return typedKeys(w.keys.Submit, w.keys.Cancel, w.keys.Calendar.Help(w.p.WithTime())...)
}
