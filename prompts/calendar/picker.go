package calendar

import (
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// part is one of the inputs a Picker's text is typed in.
type part int

const (
	partDate   part = iota // YYYY-MM-DD
	partClock              // HH:MM[:SS[.frac]], date-time only
	partOffset             // Z or ±HH:MM, date-time only
)

// Bounds of the text each part takes.
const (
	maxDateText   = 64 // room for what a server's default or a paste holds
	maxClockText  = 18 // HH:MM:SS.fffffffff
	maxOffsetText = 6  // ±HH:MM
)

// Options configure a Picker.
type Options struct {
	// WithTime adds a time of day and an offset: the value is then an
	// RFC 3339 date-time instead of a full-date.
	WithTime bool
	// Now is the moment the picker opens at: the calendar starts on its
	// day, marks it as today, and a date-time with no offset typed takes
	// its offset. Zero means time.Now().
	Now time.Time
	// Keys are the navigation keys; nil means DefaultKeyMap().
	Keys *KeyMap
	// Start is the day the calendar opens on, which the first move picks
	// while nothing is typed: a day the asker will take. Zero means
	// Now's day.
	Start Date
}

// Picker is a date (or date-time) input: typed text, and a month calendar
// that arrow keys move through. Moving writes the day into the text;
// typing a date moves the calendar to it. A date-time has three parts
// (date, time, offset): tab moves between them, and so does typing T after
// the date or Z, + or - after the time.
type Picker struct {
	inputs   [3]textinput.Model
	withTime bool
	part     part
	cursor   Date   // the day the calendar shows
	today    Date   // marked on the calendar
	zone     string // the offset a date-time takes when none is typed
	keys     KeyMap
}

// New returns an empty Picker, blurred.
func New(opts Options) *Picker {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	keys := DefaultKeyMap()
	if opts.Keys != nil {
		keys = *opts.Keys
	}
	p := &Picker{withTime: opts.WithTime, today: DateOf(now), keys: keys}
	p.cursor = p.today
	if !opts.Start.IsZero() {
		p.cursor = opts.Start
	}
	_, secs := now.Zone()
	p.zone = FormatOffset(secs)
	p.inputs[partDate] = newInput("> ", "YYYY-MM-DD", maxDateText, 10)
	p.inputs[partClock] = newInput(" at ", "HH:MM:SS", maxClockText, 8)
	p.inputs[partOffset] = newInput(" ", p.zone, maxOffsetText, 6)
	return p
}

func newInput(prompt, placeholder string, limit, width int) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.CharLimit = limit
	in.SetWidth(width)
	return in
}

// WithTime reports whether the picker takes a date-time.
func (p *Picker) WithTime() bool { return p.withTime }

// Keys returns the picker's navigation keys.
func (p *Picker) Keys() KeyMap { return p.keys }

// Focus gives the keyboard to the part being typed in.
func (p *Picker) Focus() tea.Cmd { return p.inputs[p.part].Focus() }

// Blur takes the keyboard away.
func (p *Picker) Blur() {
	for i := range p.inputs {
		p.inputs[i].Blur()
	}
}

// focusPart moves the keyboard to part q (kept within the parts there are).
func (p *Picker) focusPart(q part) tea.Cmd {
	last := partDate
	if p.withTime {
		last = partOffset
	}
	q = max(partDate, min(last, q))
	focused := p.inputs[p.part].Focused()
	p.inputs[p.part].Blur()
	p.part = q
	if !focused {
		return nil
	}
	p.inputs[q].CursorEnd()
	return p.inputs[q].Focus()
}

// Update handles one message; edited reports whether the text changed.
func (p *Picker) Update(msg tea.Msg) (edited bool, cmd tea.Cmd) {
	before := p.Text()
	switch msg := msg.(type) {
	case tea.PasteMsg:
		if text := strings.TrimSpace(msg.Content); p.whole(text) {
			_ = p.SetValue(text)
			return p.Text() != before, nil
		}
	case tea.KeyPressMsg:
		if done, cmd := p.navigate(msg); done {
			return p.Text() != before, cmd
		}
	}
	in := &p.inputs[p.part]
	*in, cmd = in.Update(msg)
	if d, err := ParseDate(strings.TrimSpace(p.inputs[partDate].Value())); err == nil {
		p.cursor = d
	}
	return p.Text() != before, cmd
}

// navigate handles the keys that move the calendar or between parts, and
// the typed characters that end a part; done is false for keys the
// focused input should take.
func (p *Picker) navigate(k tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	switch {
	case key.Matches(k, p.keys.PrevDay):
		p.move(func(d Date) Date { return d.AddDays(-1) })
	case key.Matches(k, p.keys.NextDay):
		p.move(func(d Date) Date { return d.AddDays(1) })
	case key.Matches(k, p.keys.PrevWeek):
		p.move(func(d Date) Date { return d.AddDays(-7) })
	case key.Matches(k, p.keys.NextWeek):
		p.move(func(d Date) Date { return d.AddDays(7) })
	case key.Matches(k, p.keys.PrevMonth):
		p.move(func(d Date) Date { return d.AddMonths(-1) })
	case key.Matches(k, p.keys.NextMonth):
		p.move(func(d Date) Date { return d.AddMonths(1) })
	case p.withTime && key.Matches(k, p.keys.NextPart):
		return true, p.focusPart(p.part + 1)
	case p.withTime && key.Matches(k, p.keys.PrevPart):
		return true, p.focusPart(p.part - 1)
	case p.part > partDate && key.Matches(k, p.inputs[p.part].KeyMap.DeleteCharacterBackward) &&
		p.inputs[p.part].Value() == "":
		return true, p.focusPart(p.part - 1)
	case p.withTime && p.part == partDate && len(k.Text) == 1 && strings.Contains("Tt ", k.Text) &&
		len(strings.TrimSpace(p.inputs[partDate].Value())) == len("YYYY-MM-DD"):
		return true, p.focusPart(partClock)
	case p.part == partClock && len(k.Text) == 1 && strings.Contains("Zz+-", k.Text) &&
		strings.TrimSpace(p.inputs[partClock].Value()) != "":
		cmd := p.focusPart(partOffset)
		p.inputs[partOffset].SetValue(strings.ToUpper(k.Text))
		p.inputs[partOffset].CursorEnd()
		return true, cmd
	default:
		return false, nil
	}
	return true, nil
}

// move writes into the date part the day f gives for the one shown. With
// no date typed yet, the first move picks the day shown (Options.Start,
// or today) as it is.
func (p *Picker) move(f func(Date) Date) {
	text := strings.TrimSpace(p.inputs[partDate].Value())
	next := p.cursor
	if text != "" {
		next = f(p.cursor)
	}
	p.setDate(next)
}

// setDate writes d into the date part and shows its month.
func (p *Picker) setDate(d Date) {
	p.cursor = d
	p.inputs[partDate].SetValue(d.String())
	p.inputs[partDate].CursorEnd()
}

// whole reports whether s is a complete value: a date, or for a
// date-time a date-time.
func (p *Picker) whole(s string) bool {
	if p.withTime {
		_, err := ParseDateTime(s)
		return err == nil
	}
	_, err := ParseDate(s)
	return err == nil
}

// Empty reports whether nothing is typed in any part.
func (p *Picker) Empty() bool {
	for _, in := range p.inputs {
		if strings.TrimSpace(in.Value()) != "" {
			return false
		}
	}
	return true
}

// Text is what is typed, as one string: the date part, then for a
// date-time with a time typed "T", the time and the offset.
func (p *Picker) Text() string {
	text := p.inputs[partDate].Value()
	if p.withTime && p.inputs[partClock].Value() != "" {
		text += "T" + p.inputs[partClock].Value() + p.inputs[partOffset].Value()
	}
	return text
}

// Value returns the date (YYYY-MM-DD) or date-time (RFC 3339, seconds
// always written) the text holds; "" when nothing is typed. A date-time
// with no offset typed takes the offset of Options.Now. The error says
// which part is wrong and how to write it.
func (p *Picker) Value() (string, error) {
	if p.Empty() {
		return "", nil
	}
	d, err := ParseDate(strings.TrimSpace(p.inputs[partDate].Value()))
	if err != nil {
		return "", err
	}
	if !p.withTime {
		return d.String(), nil
	}
	clock := strings.TrimSpace(p.inputs[partClock].Value())
	if clock == "" {
		return "", errors.New("not a time: the time is missing, " + clockHint)
	}
	c, err := ParseClock(clock)
	if err != nil {
		return "", err
	}
	zone := strings.TrimSpace(p.inputs[partOffset].Value())
	if zone == "" {
		zone = p.zone
	}
	off, err := ParseOffset(zone)
	if err != nil {
		return "", err
	}
	return DateTime{Date: d, Clock: c, Offset: off}.String(), nil
}

// SetValue shows s: a full-date, or for a date-time an RFC 3339 date-time
// (or a full-date alone, leaving the time to type). Text that does not
// parse is kept as it is in the date part, so that nothing is lost, and
// the error says why it does not parse; "" empties the picker.
func (p *Picker) SetValue(s string) error {
	for i := range p.inputs {
		p.inputs[i].SetValue("")
	}
	if s == "" {
		return nil
	}
	if p.withTime {
		if date, clock, offset, ok := SplitDateTime(s); ok {
			if _, err := ParseDateTime(s); err == nil {
				d, _ := ParseDate(date)
				p.setDate(d)
				p.inputs[partClock].SetValue(clock)
				p.inputs[partOffset].SetValue(strings.ToUpper(offset))
				return nil
			}
		}
	}
	d, err := ParseDate(s)
	if err == nil {
		p.setDate(d)
		return nil
	}
	if p.withTime {
		_, err = ParseDateTime(s)
	}
	p.inputs[partDate].SetValue(s)
	p.inputs[partDate].CursorEnd()
	return err
}
