package calendar

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// calendarIndent lines the grid up under the text after the "> " prompt.
const calendarIndent = "  "

// Selected returns the day the date part holds; ok is false when it holds
// no date.
func (p *Picker) Selected() (d Date, ok bool) {
	d, err := ParseDate(strings.TrimSpace(p.inputs[partDate].Value()))
	return d, err == nil
}

// Shown returns the day the calendar is on: the typed date, the last day
// moved to, or today.
func (p *Picker) Shown() Date { return p.cursor }

// View draws the input line (for a date-time: date, time and offset, on
// separate lines when width is too narrow for one) and, with calendar,
// the month grid under it (GridHeight more lines). Every line fits in
// width cells.
func (p *Picker) View(st Styles, width int, calendar bool) string {
	width = max(width, 1)
	for i := range p.inputs {
		p.inputs[i].SetStyles(st.Input)
	}
	var lines []string
	if !p.withTime {
		in := &p.inputs[partDate]
		in.SetWidth(max(10, width-lipgloss.Width(in.Prompt)-1))
		lines = append(lines, in.View())
	} else {
		parts := []string{p.inputs[partDate].View(), p.inputs[partClock].View(), p.inputs[partOffset].View()}
		if one := strings.Join(parts, ""); lipgloss.Width(one) <= width {
			lines = append(lines, one)
		} else {
			lines = append(lines, parts...)
		}
	}
	if calendar {
		sel, ok := p.Selected()
		for _, l := range Month(st, p.cursor, sel, ok, p.today) {
			lines = append(lines, calendarIndent+l)
		}
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	return strings.Join(lines, "\n")
}
