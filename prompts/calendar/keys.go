package calendar

import "charm.land/bubbles/v2/key"

// KeyMap holds the keys of a Picker. A binding without keys is off (the
// schema form, for one, keeps up/down and tab for moving between fields).
type KeyMap struct {
	PrevDay   key.Binding // the day before
	NextDay   key.Binding // the day after
	PrevWeek  key.Binding // seven days back
	NextWeek  key.Binding // seven days on
	PrevMonth key.Binding // the same day a month back
	NextMonth key.Binding // the same day a month on
	PrevPart  key.Binding // date-time: the previous part (date, time, offset)
	NextPart  key.Binding // date-time: the next part
}

// DefaultKeyMap returns the keys of a stand-alone date input: arrows move
// by a day (←/→) or a week (↑/↓), pgup/pgdown by a month, tab between the
// parts of a date-time.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		PrevDay:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "day before")),
		NextDay:   key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "day after")),
		PrevWeek:  key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "week before")),
		NextWeek:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "week after")),
		PrevMonth: key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "month before")),
		NextMonth: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdown", "month after")),
		PrevPart:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous part")),
		NextPart:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next part")),
	}
}

// Help returns the bindings to show in a help bar, in pairs ("←/→ day"),
// leaving out the ones that are off; withParts adds the date-time parts.
func (k KeyMap) Help(withParts bool) []key.Binding {
	out := []key.Binding{}
	add := func(a, b key.Binding, desc string) {
		if !a.Enabled() || !b.Enabled() {
			return
		}
		keys := append(append([]string{}, a.Keys()...), b.Keys()...)
		out = append(out, key.NewBinding(key.WithKeys(keys...), key.WithHelp(a.Help().Key+"/"+b.Help().Key, desc)))
	}
	add(k.PrevDay, k.NextDay, "day")
	add(k.PrevWeek, k.NextWeek, "week")
	add(k.PrevMonth, k.NextMonth, "month")
	if withParts {
		add(k.NextPart, k.PrevPart, "date/time/offset")
	}
	return out
}
