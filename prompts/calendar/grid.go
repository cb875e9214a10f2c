package calendar

import (
	"fmt"
	"strings"
)

// Grid sizes: seven columns of a separator and two digits, plus the
// closing bracket a selection in the last column needs; six week rows, so
// the grid keeps its height from month to month.
const (
	GridWidth  = 22
	GridHeight = 8 // title, weekday header, six weeks
	gridWeeks  = 6
)

// weekdays heads the columns; weeks start on Monday (ISO 8601).
var weekdays = [7]string{"Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"}

// Month draws the month that holds shown as GridHeight lines of GridWidth
// cells: the month and year, the weekdays, and six weeks. The selected day
// (when hasSelected) is set in brackets, "[5]", so that it shows without
// colour too; today has the Today style.
func Month(st Styles, shown Date, selected Date, hasSelected bool, today Date) []string {
	title := fmt.Sprintf("%s %04d", shown.Month, shown.Year)
	pad := max(0, (GridWidth-len(title))/2)
	lines := []string{strings.Repeat(" ", pad) + st.Title.Render(title)}

	var head strings.Builder
	for _, w := range weekdays {
		head.WriteString(" " + st.Weekday.Render(w))
	}
	lines = append(lines, head.String())

	first := Date{Year: shown.Year, Month: shown.Month, Day: 1}
	lead := (int(first.Weekday()) + 6) % 7 // days of the previous month in week one
	days := DaysIn(shown.Year, shown.Month)
	sel := -1
	if hasSelected && selected.Year == shown.Year && selected.Month == shown.Month {
		sel = selected.Day
	}
	for w := range gridWeeks {
		var row strings.Builder
		for c := range 7 {
			day := w*7 + c - lead + 1
			row.WriteString(separator(day, sel, c))
			row.WriteString(cell(st, shown, day, days, sel, today))
		}
		if last := w*7 + 6 - lead + 1; sel > 0 && last == sel {
			row.WriteByte(']')
		}
		lines = append(lines, row.String())
	}
	return lines
}

// separator is the cell before day: "[" before the selected day, "]"
// after it, else a space.
func separator(day, sel, col int) string {
	switch {
	case sel < 1:
	case day == sel:
		return "["
	case col > 0 && day-1 == sel:
		return "]"
	}
	return " "
}

// cell draws one day, two cells wide; blank outside the month.
func cell(st Styles, shown Date, day, days, sel int, today Date) string {
	if day < 1 || day > days {
		return "  "
	}
	text := fmt.Sprintf("%2d", day)
	switch {
	case sel > 0 && day == sel:
		return st.Selected.Render(text)
	case (Date{Year: shown.Year, Month: shown.Month, Day: day}) == today:
		return st.Today.Render(text)
	}
	return st.Day.Render(text)
}
